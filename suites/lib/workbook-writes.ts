import { isDeepStrictEqual } from "node:util";
import type { Api } from "../../core/transport/api.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import type { Scratch } from "../../core/ledger/scratch.js";
import { carriesPrefix } from "../../core/ledger/ownership.js";
import { statusLine } from "../../core/api/expect.js";
import { NotExercised } from "../../core/model/outcome.js";
import { sameTimestamp } from "../../core/api/timestamps.js";
import { offSchema, pathTo } from "../../core/transport/client.js";
import type { Together } from "../../core/transport/together.js";
import type { Workbook } from "../../core/api/schema-types.js";

/**
 * E10 clone and E11 upsert as a check sends them: every workbook an answer names is entered in the
 * ledger the moment it is seen, whoever created it (a faulty server may create where it should
 * refuse); cleanup removes it only if E9 then shows it is the run's own.
 */

/** What an upsert may change; a refused request must leave all of it as it was. */
export const upsertContent = (w: Workbook) => ({ name: w.name, folderId: w.folderId, meta: w.meta, dashboardDraft: w.dashboardDraft });

/** A widget's position (Resources / DashboardWidget: x, y, w, h, all integers). */
export const widgetPosition = (x: number, y: number, w: number, h: number) => ({ x, y, w, h });

/** E9's path: also where a property or an invariant reads a workbook back. */
export const workbookPath = (dep: string, id: number) => pathTo("getWorkbook", { deploymentId: dep, workbookId: id });

/** The workbook a 200 answer names, entered in the ledger in the deployment the request wrote to (an answer naming another is read back there, and not confirmed). */
export function trackAnswered(scratch: Scratch, dep: string, res: Response, name?: string): void {
  const id = res.status === 200 && res.isJson ? res.body?.id : undefined;
  if (!Number.isSafeInteger(id)) return;
  scratch.track(dep, { type: "WORKBOOK", id }, { res, name });
}

/** E11: PUT by slug (`together`: one of a race's requests, core/transport/together.ts). */
export async function putBySlug(scratch: Scratch, api: Api, dep: string, slug: string, body?: unknown, together?: Together): Promise<Response<Workbook>> {
  const res = await api.call("upsertWorkbookBySlug", { deploymentId: dep, slug }, { body: offSchema(body), together });
  trackAnswered(scratch, dep, res, slug);
  return res;
}

/**
 * A clone the check needs (not one it expects refused) answered 400: E10 rule 7 gives exactly that
 * when the plan's workbook limit is reached, a plan-dependent count no request can read (a run's
 * own workbooks may reach it). The scenario did not happen; nothing is judged.
 */
export function unlessAtWorkbookLimit(res: Response, what: string): void {
  if (res.status === 400) throw new NotExercised(`${what} answered 400, which E10 rule 7 gives when the plan's workbook limit is reached: ${statusLine(res)}`);
}

/** E10: POST duplicate, with the optional body. */
export async function duplicate(scratch: Scratch, api: Api, dep: string, id: number, body?: unknown): Promise<Response<Workbook>> {
  const res = await api.call("duplicateWorkbook", { deploymentId: dep, workbookId: id }, { body: offSchema(body) });
  trackAnswered(scratch, dep, res);
  return res;
}

/**
 * A workbook of the check's own, created through E11 under a fresh slug with `body`. Creating it is
 * a precondition here, not the rule under test: a server that cannot blocks the check (E11's owner
 * fails), and one that ignores a sent folderId blocks it too (it was asked to create it there).
 */
export async function ownWorkbook(
  ctx: Pick<CheckContext, "scratch" | "require">,
  api: Api,
  dep: string,
  body: Record<string, unknown> = {},
): Promise<{ slug: string; workbook: Workbook }> {
  const slug = ctx.scratch.slug("wb");
  const res = await putBySlug(ctx.scratch, api, dep, slug, { name: ctx.scratch.name("workbook"), ...body });
  const placed = (w: Workbook) => !("folderId" in body) || !("folderId" in w) || w.folderId === body.folderId;
  const what = "folderId" in body ? `creating a workbook of its own in folder ${body.folderId}` : "creating a workbook of its own";
  const workbook = ctx.require(res, "E11", what, (r) => r.isJson && Number.isSafeInteger(r.body?.id) && placed(r.body));
  // An answer that names some other workbook is never written to: E9 must show it is the check's own.
  if (!carriesPrefix(workbook, ctx.scratch.prefix)) await ctx.scratch.requireOwn(api, dep, [{ type: "WORKBOOK", id: workbook.id }]);
  return { slug, workbook };
}

/** E9, the record as stored now; anything but a 200 workbook fails the check. */
export async function readWorkbook(ctx: Pick<CheckContext, "expect">, api: Api, dep: string, id: number): Promise<{ workbook: Workbook; res: Response }> {
  const res = await api.get(workbookPath(dep, id));
  return { workbook: ctx.expect.ok<Workbook>(res, "Workbook"), res };
}

/** The owner a workbook record shows (createdBy, else user.id, else userId); the fields are optional. */
export function ownerOf(w: Partial<Workbook> | null | undefined): number | undefined {
  const id = w?.createdBy ?? w?.user?.id ?? w?.userId;
  return typeof id === "number" ? id : undefined;
}

/**
 * The documented Workbook fields but updatedAt: what re-applying a request must leave as it was,
 * and what a write's answer must show as a read next shows it. Fields a server adds (published docs: newer
 * servers do) may move on their own, a view time say.
 */
const DOCUMENTED = [
  "id",
  "deploymentId",
  "name",
  "type",
  "meta",
  "calculatedFields",
  "createdAt",
  "createdBy",
  "userId",
  "user",
  "folderId",
  "folderPath",
  "isFavorite",
  "slug",
  "dashboardDraft",
  "dashboardPublished",
  "publishedDashboard",
];
export const documented = (w: Record<string, unknown> | undefined) => Object.fromEntries(DOCUMENTED.map((k) => [k, w?.[k]]));

/**
 * A write answers with the Workbook as it now is (E10, E11 Response: Workbook; E12 moved: records
 * as the move returns them): every documented field the answer shows equals what E9 reads next.
 * Optional fields the answer leaves out are not compared; neither are timestamps beyond the instant.
 */
export async function expectAnswerIsStored(
  ctx: Pick<CheckContext, "expect">,
  api: Api,
  dep: string,
  answer: Workbook,
  answerRes: Response,
  what: string,
): Promise<void> {
  const { workbook, res } = await readWorkbook(ctx, api, dep, answer.id);
  // Compared field by field, by name.
  const [shownBy, stored]: Record<string, unknown>[] = [answer, workbook];
  const shown = DOCUMENTED.filter((k) => shownBy?.[k] !== undefined);
  const differing = shown.filter((k) => {
    const [a, b] = [shownBy[k], stored[k]];
    return !isDeepStrictEqual(a, b) && !(k === "createdAt" && typeof a === "string" && typeof b === "string" && sameTimestamp(a, b));
  });
  ctx.expect.that(differing.length === 0, `${what}: the answer shows workbook ${answer.id} as E9 reads it next`, {
    reason: "answer-as-stored",
    expected: pick(stored, differing),
    got: pick(shownBy, differing),
    res: differing.length ? answerRes : res,
  });
}

const pick = (o: Record<string, unknown> | undefined, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o?.[k]]));
