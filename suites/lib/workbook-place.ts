import type { Api } from "../../core/transport/api.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import { walkAgainUntil, walkCursor } from "../../core/transport/pagination.js";
import { workbooksPath } from "./workbook-calls.js";
import { workbookPath } from "./workbook-writes.js";
import type { Workbook } from "../../core/api/schema-types.js";

/**
 * Optional Workbook fields (folderId, dashboardDraft, publishedDashboard: "Required: no") read
 * where the server shows them: the answer, then E9, then (for a placement) E8's folderId filter.
 * A field no read shows is not verifiable; `undefined` is never compared.
 */

/** Pages of E8's folderId filter read to find one workbook in a folder. */
const FILTER_PAGES = 20;

const shows = <K extends string>(w: unknown, field: K): w is Record<K, unknown> => !!w && typeof w === "object" && field in w;

/**
 * Whether workbook `id` is in `folder`: the folderId of `answer` or of E9 where either shows it,
 * else whether E8 filtered by that folder lists it (the filter is believed where it lists `witness`,
 * a workbook known to be there, and leaves out `outsider`, one known to be elsewhere, when given).
 */
export async function inFolder(
  ctx: Pick<CheckContext, "expect">,
  api: Api,
  dep: string,
  id: number,
  folder: number,
  known: { answer?: unknown; witness?: number; outsider?: number } = {},
): Promise<{ inside: boolean; res?: Response; how: string }> {
  if (shows(known.answer, "folderId")) return { inside: known.answer.folderId === folder, how: "the answer's folderId" };
  const res = await api.get(workbookPath(dep, id));
  if (res.status === 200 && res.isJson && shows(res.body, "folderId")) return { inside: res.body.folderId === folder, res, how: "E9's folderId" };
  const read = () => walkCursor<Workbook>(api, workbooksPath(dep), { first: 50, query: { folderId: folder }, stopAfter: FILTER_PAGES }).catch(() => undefined);
  const walk = await walkAgainUntil(read, (w) => !w || w.partial || w.items.some((x) => x?.id === id));
  const listed = new Set((walk?.items ?? []).map((w) => w?.id));
  const honoured = walk && (known.witness === undefined || listed.has(known.witness)) && (known.outsider === undefined || !listed.has(known.outsider));
  if (!walk || !honoured || (walk.partial && !listed.has(id)))
    throw new NotVerifiable(
      `no read shows where workbook ${id} is: neither the answer nor E9 shows folderId (optional), and E8's folderId filter does not show folder ${folder}'s contents`,
    );
  return { inside: listed.has(id), res: walk.pages.at(-1)?.res, how: `E8 filtered by folderId=${folder}` };
}

/** The folderId the answer or E9 shows (a number, or null for the root); undefined where neither shows it. */
export async function shownFolderId(api: Api, dep: string, id: number, answer?: unknown): Promise<number | null | undefined> {
  // Workbook: folderId is a number, or null for the root.
  if (shows(answer, "folderId")) return (answer.folderId ?? null) as number | null;
  const res = await api.get(workbookPath(dep, id));
  return res.status === 200 && res.isJson && shows(res.body, "folderId") ? ((res.body.folderId ?? null) as number | null) : undefined;
}

/** A workbook read shows its dashboard draft (the dashboardDraft field, or meta.dashboardDraft); not verifiable where it shows neither. */
export function requireDraftShown(w: unknown, what: string): void {
  if (!shows(w, "dashboardDraft") && !shows(shows(w, "meta") ? w.meta : undefined, "dashboardDraft"))
    throw new NotVerifiable(`${what} shows no dashboard draft (dashboardDraft is optional, and meta holds none)`);
}

/** A workbook read shows its published dashboard (null included); not verifiable where the field is left out. */
export function requirePublishedShown(w: unknown, what: string): void {
  if (!shows(w, "publishedDashboard")) throw new NotVerifiable(`${what} shows no publishedDashboard (an optional field)`);
}
