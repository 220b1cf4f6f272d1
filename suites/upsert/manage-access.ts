import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Api } from "../../core/transport/api.js";
import { NotExercised } from "../../core/model/outcome.js";
import { servedOrPlain } from "../lib/e14.js";
import { createFolder } from "../lib/scratch-items.js";
import { ownWorkbook, putBySlug, readWorkbook } from "../lib/workbook-writes.js";
import { shownFolderId } from "../lib/workbook-place.js";
import { WRITES } from "../lib/needs.js";

/**
 * Whether `api`'s caller may edit and not manage a workbook of the main key's in `place`: it
 * updates one by slug (edit access, E11 rule 4) and is refused the delete of its twin (facts,
 * Workspace endpoints: deleting takes manage access). A caller that deletes it manages it.
 */
async function editsWithoutManaging(ctx: CheckContext, api: Api, dep: string, place: number | null): Promise<boolean> {
  const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep, place === null ? {} : { folderId: place });
  const edit = await putBySlug(ctx.scratch, api, dep, slug, { name: workbook.name });
  if (edit.status < 200 || edit.status >= 300) return false;
  const { workbook: twin } = await ownWorkbook(ctx, ctx.api, dep, place === null ? {} : { folderId: place });
  const ref = { type: "WORKBOOK" as const, id: twin.id };
  const res = await api.call("bulkDeleteWorkspaceItems", { deploymentId: dep }, { body: { items: [ref] } });
  if (res.status === 403) return true;
  if (res.status !== 200 || !res.isJson) return false;
  const body = (await servedOrPlain(ctx, "bulkDeleteWorkspaceItems")).record(res);
  const failed = Array.isArray(body?.failed) ? body.failed.find((f: any) => f?.id === twin.id) : undefined;
  if (failed?.error?.status === 403) return true;
  if (Array.isArray(body?.deleted) && body.deleted.some((d: any) => d?.id === twin.id)) ctx.scratch.forget(dep, ref);
  return false;
}

/** One update by slug that moves a workbook of the main key's from `place` to `destination` (with a new name and meta), sent by a caller that may edit it and not manage it: refused, none of it applied. */
async function refusedMove(
  ctx: CheckContext,
  caller: { role: string; api: Api },
  dep: string,
  place: number | null,
  destination: number | null,
): Promise<void> {
  const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep, place === null ? {} : { folderId: place });
  const { workbook: before } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
  // A name and meta the caller may set alone go beside the move: rule 5 decides and checks the request whole
  // before applying any of it (a server once wrote the name before it checked the move).
  const res = await putBySlug(ctx.scratch, caller.api, dep, slug, { name: ctx.scratch.name("moved"), meta: { moved: true }, folderId: destination });
  const where = place === null ? "at the root" : `in folder ${place}`;
  ctx.expect.clientError(
    res,
    `tokens.${caller.role}, which may edit workbook ${workbook.id} ${where} but not manage it, moving it with folderId ${destination}`,
  );
  const now = await shownFolderId(ctx.api, dep, workbook.id);
  ctx.expect.that(now === undefined || now === place, `workbook ${workbook.id} is still ${where} after the refused move to ${destination ?? "the root"}`, {
    expected: `folderId ${place}`,
    got: `folderId ${now}`,
    res,
    reason: "not-applied",
  });
  const { workbook: after, res: read } = await readWorkbook(ctx, ctx.api, dep, workbook.id);
  ctx.expect.equal(
    { name: after.name, meta: after.meta },
    { name: before.name, meta: before.meta },
    `workbook ${workbook.id} keeps its name and meta after the refused move that sent new ones`,
    { res: read, reason: "not-applied" },
  );
}

/**
 * E11 rule 4 and Authentication 4: an update that names folderId needs manage access to the
 * workbook, beyond edit access. Every key the run has is tried where a caller may edit without
 * managing: at the root, in a folder of the run's own and in fixtures.editableFolderId (a folder a
 * grant lets the readOnly key edit); wherever one does, it sends a workbook of the main key's into a
 * new folder beside it, and from a folder to the root (folderId null).
 */
export const upsertManageAccessChecks = group("upsert", [
  {
    id: "upsert.access.move-needs-manage",
    spec: "E11 rule 4; Authentication 4 (with folderId also manage access)",
    level: "MUST",
    title:
      "An update by slug that names folderId beside a new name and meta, sent by a caller with edit and without manage access to the workbook, is rejected with a 4xx and applies none of them: the workbook keeps its place, name and meta",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const configured = ctx.settings.fixtures.editableFolderId;
      // At the root, in a folder of the run's own (a grant on the root may reach into it), and in the configured one.
      const places: (number | null)[] = [null, (await createFolder(ctx, dep)).id, ...(configured === undefined ? [] : [configured])];
      let judged = 0;
      for (const place of places)
        for (const { role, api } of ctx.callers()) {
          if (!(await editsWithoutManaging(ctx, api, dep, place))) continue;
          // Into a new folder beside it, and, from a folder, to the root: folderId null is a move too (a server once let it through).
          for (const destination of [(await createFolder(ctx, dep, place)).id, ...(place === null ? [] : [null])]) {
            judged++;
            await refusedMove(ctx, { role, api }, dep, place, destination);
          }
        }
      if (!judged)
        throw new NotExercised(
          "no key the run has may edit a workbook of the main key's without managing it (updates it by slug, is refused its delete), at the root or in fixtures.editableFolderId",
        );
    },
  },
]);
