import fc from "fast-check";
import type { CheckContext } from "../../core/check/context.js";
import { createFolder, createWorkbook } from "./scratch-items.js";
import { workbookPath } from "./workbook-writes.js";
import { type BadBody, type Stage, badBodies, notJsonBodies, sender, spelledAsValid } from "./negative-bodies.js";
import { atOnce } from "./at-once.js";

/** The valid move takes the run's own workbook from the root into the run's own folder; it must stay at the root. */
export async function bulkMoveStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("deployment").id;
  const [folder, item] = await atOnce([createFolder(ctx, dep), createWorkbook(ctx, dep)]);
  const base = fc.constant({ items: [item], folderId: folder.id });
  // Entries a case adds (more than 100) name nothing: negative ids.
  const opts = { base, nullIsAbsent: true, overrides: { "/items/*/id": fc.integer({ min: -1_000_000, max: -1 }) } };
  return {
    cases: badBodies(ctx, "BulkMoveRequest", opts),
    notJson: notJsonBodies(base),
    send: sender("bulkMoveWorkspaceItems", { deploymentId: dep }),
    // The workbook read as JSON, not judged by the schema (the invariant's verdict): only where it sits is this stage's.
    async restore(api) {
      if ((ctx.expect.ok(await api.get(workbookPath(dep, item.id))).folderId ?? null) === null) return;
      ctx.expect.status(
        await api.call("bulkMoveWorkspaceItems", { deploymentId: dep }, { body: { items: [item], folderId: null } }),
        200,
        `moving the run's workbook ${item.id} back to the root`,
      );
    },
    lenient: spelledAsValid(ctx, "BulkMoveRequest"),
    async unchanged(api) {
      const res = await api.get(workbookPath(dep, item.id));
      ctx.expect.equal(ctx.expect.ok(res).folderId ?? null, null, `the run's workbook ${item.id} is still at the root`, {
        res: res,
        reason: "stays-put",
      });
    },
  };
}

/** E12 fixes the types of items and folderId; how it treats a malformed entry, a missing field or a long batch, it only implies. */
export const bulkMoveTyped = (b: BadBody) =>
  b.kind === "malformed-json" || b.at === "" || (b.kind === "wrong-type" && (b.at === "/items" || b.at === "/folderId"));
