import { group } from "../../core/check/check.js";
import { lockedFolder } from "./access-mixed.js";
import { NotExercised } from "../../core/model/outcome.js";
import { createFolder, createWorkbook, deletedItem, folderSitsIn, parentOfFolder } from "../lib/scratch-items.js";
import { bulkMove } from "../lib/workbook-calls.js";
import { expectWorkbookIn, failureOf, moveOk, rootWorkbookOf } from "./move-and-read.js";
import { WRITES } from "../lib/needs.js";
import type { CheckContext } from "../../core/check/context.js";
import type { ItemRef } from "../../core/ledger/scratch.js";
import { documented } from "../lib/e14.js";
import { ownReport } from "../lib/reports.js";
import { ownWorkbook } from "../lib/workbook-writes.js";

/** E12's failed: an item that cannot move (missing, another deployment's, no edit access, into its own descendant) is reported with its status and stays put. */
export const bulkMoveItemFailureChecks = group("bulk-move", [
  {
    id: "bulk-move.failures.missing-404",
    spec: "E12 (failed); Errors 2",
    level: "MUST",
    title: "A missing item is reported in failed with status 404",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const dest = await createFolder(ctx, dep);
      const gone = await deletedItem(ctx, dep, "WORKBOOK");
      const r = await moveOk(ctx, ctx.api, dep, [gone], dest.id);
      ctx.expect.equal(failureOf(ctx, r, gone, "a missing item").error?.status, 404, "a missing item fails with status 404", {
        res: r.res,
        reason: "failure-status",
      });
    },
  },
  {
    id: "bulk-move.failures.other-deployment-404",
    spec: "E12 (failed); Errors 2",
    level: "MUST",
    title: "An item of another deployment is reported in failed with status 404 and stays where it is",
    needs: [...WRITES, "fixture:otherDeployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const other = ctx.fixture("otherDeployment").id;
      // A deployment the user named takes a workbook of the run's own, moved into a folder of the run's
      // own; one only discovered is never written: one of its root workbooks is sent to the root, so
      // that a server that wrongly takes it moves nothing.
      const named = ctx.settings.fixtures.otherDeploymentId !== undefined;
      const foreign = named ? await createWorkbook(ctx, other) : await rootWorkbookOf(ctx, other);
      // Ids scoped per deployment: the id may name a workbook of this deployment too, which must not move
      // (the foreign one shown under this deployment is E9's failure, not such a twin).
      const mine = await ctx.api.call("getWorkbook", { deploymentId: dep, workbookId: foreign.id });
      const sameOne = mine.status === 200 && mine.isJson && String(mine.body?.deploymentId) === other;
      if (mine.status !== 404 && !sameOne)
        throw new NotExercised(
          `workbook ${foreign.id} of deployment ${other} also answers ${mine.status} under deployment ${dep}: the move would name that one`,
        );
      const dest = named ? (await createFolder(ctx, dep)).id : null;
      const r = await moveOk(ctx, ctx.api, dep, [foreign], dest);
      ctx.expect.equal(failureOf(ctx, r, foreign, "an item of another deployment").error?.status, 404, "an item of another deployment fails with status 404", {
        res: r.res,
        reason: "failure-status",
      });
      await expectWorkbookIn(ctx, other, foreign.id, null, "in its own deployment, untouched");
    },
  },
  {
    id: "bulk-move.failures.no-access-403",
    spec: "E12 (failed); Authentication 4 (bulk move: per item, the same rules as the single-item move)",
    level: "MUST",
    title:
      "An item the caller may not move, of each kind (a folder it can only read, and a workbook and a report of the main key's inside it), is reported in failed with status 403 and stays where it is",
    needs: [...WRITES, "token:readOnly"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { locked, home } = await lockedFolder(ctx, dep);
      // Access is checked per item, whatever its kind: a server once skipped the check for reports alone.
      const inside = await othersItemsIn(ctx, dep, locked.id);
      // The root: a destination every caller can see (a folder of the run's own might be hidden from it).
      const r = await moveOk(ctx, ctx.as("readOnly"), dep, [locked, ...inside.map((i) => i.item)], null);
      ctx.expect.equal(
        failureOf(ctx, r, locked, "a folder the readOnly token may only read").error?.status,
        403,
        "moving an item without edit access fails with status 403",
        { res: r.res, reason: "failure-status" },
      );
      for (const { item, seen } of inside) {
        const what = `a ${item.type.toLowerCase()} of the main key's in a folder the readOnly token may only read`;
        const status = failureOf(ctx, r, item, what).error?.status;
        // One the key cannot be shown to read may be answered as missing to it (404), as long as it does not move.
        ctx.expect.that(status === 403 || (!seen && status === 404), `${what} fails with status 403`, {
          expected: seen ? "403" : "403 (or 404: the key may not see it)",
          got: String(status),
          res: r.res,
          reason: "failure-status",
        });
      }
      ctx.expect.equal(await parentOfFolder(ctx.api, dep, locked.id), home, `the folder stays in ${home ?? "the root"}`, { reason: "stays-put" });
      const workbook = inside.find((i) => i.item.type === "WORKBOOK");
      if (workbook) await expectWorkbookIn(ctx, dep, workbook.item.id, locked.id, "after the refused move");
    },
  },
  {
    id: "bulk-move.failures.into-descendant-400",
    spec: "E12 (failed: 400 invalid move)",
    level: "MUST",
    title: "A folder moved into its own descendant, a child or deeper, is reported in failed with status 400 and stays where it is",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const outer = await createFolder(ctx, dep);
      const child = await createFolder(ctx, dep, outer.id);
      const grandchild = await createFolder(ctx, dep, child.id);
      // A server that allows it leaves a cycle that cleanup could not delete: break it first.
      ctx.scratch.onCleanup(`folder ${outer.id} back to the root`, async () => {
        const res = await bulkMove(ctx.api, dep, [outer], null);
        if (res.status !== 200 || res.body?.failed?.length) throw new Error(`moving it back answered ${res.status} ${res.text.slice(0, 160)}`);
      });
      // The deeper one first: a check of the destination's own parent only would let it through.
      for (const [into, what] of [
        [grandchild, "its own grandchild"],
        [child, "its own child"],
      ] as const) {
        const r = await moveOk(ctx, ctx.api, dep, [outer], into.id);
        ctx.expect.equal(failureOf(ctx, r, outer, `a folder into ${what}`).error?.status, 400, `moving a folder into ${what} fails with status 400`, {
          res: r.res,
          reason: "failure-status",
        });
        const { sits, seen } = await folderSitsIn(ctx.api, dep, outer.id, into.id);
        ctx.expect.that(!sits, `the folder does not become a child of ${what}`, {
          expected: `folder ${outer.id} outside ${into.id}`,
          got: seen,
          reason: "not-own-child",
        });
      }
    },
  },
]);

/**
 * A workbook and a report (where the server's document lets the run make one) of the main key's in
 * `folder`, and whether the readOnly key is shown to read each (E9 for the workbook).
 */
async function othersItemsIn(ctx: CheckContext, dep: string, folder: number): Promise<{ item: ItemRef; seen: boolean }[]> {
  const { workbook } = await ownWorkbook(ctx, ctx.api, dep, { folderId: folder });
  const read = await ctx.as("readOnly").call("getWorkbook", { deploymentId: dep, workbookId: workbook.id });
  const items = [{ item: { type: "WORKBOOK" as const, id: workbook.id }, seen: read.status === 200 }];
  const doc = await documented(ctx);
  if (!doc.findNamed("upsertReportByPublicId")) return items;
  const report = await ownReport(ctx, doc, dep, ctx.scratch.name("report"), folder);
  return [...items, { item: { type: "REPORT" as const, id: report.id }, seen: false }];
}
