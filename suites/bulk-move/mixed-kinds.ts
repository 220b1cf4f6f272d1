import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { ItemRef } from "../../core/ledger/scratch.js";
import { pathTo } from "../../core/transport/client.js";
import { ownReport } from "../lib/reports.js";
import { allRecords, documented } from "../lib/e14.js";
import { createFolder, createWorkbook } from "../lib/scratch-items.js";
import { expectAllMoved, expectFolderIn, expectWorkbookIn, moveOk } from "./move-and-read.js";
import { NotExercised } from "../../core/model/outcome.js";
import { workbookPath } from "../lib/workbook-writes.js";
import { itemKey } from "../lib/workbook-calls.js";
import { WRITES } from "../lib/needs.js";

/**
 * The report reads back in `folderId`: the reports list (E14, read as the server documents it)
 * filtered by that folder holds it, and shows it there where it shows a folderId at all.
 */
async function expectReportIn(ctx: CheckContext, dep: string, id: number, folderId: number, what: string): Promise<void> {
  const { res, items } = await allRecords(ctx, pathTo("listReports", { deploymentId: dep }), { folderId }, `the reports of folder ${folderId}`);
  const found = items.find((r) => r?.id === id);
  ctx.expect.that(
    found !== undefined && (!("folderId" in found) || found.folderId === folderId),
    `${what}: report ${id} reads back in folder ${folderId} (the reports list filtered by folderId)`,
    {
      expected: `report ${id} with folderId ${folderId}`,
      got: found ?? `not among ${items.length} report(s) of folder ${folderId}`,
      res,
      reason: "reads-back",
    },
  );
}

/** One batch of every kind E12 takes (workbook, report, folder): a report is made and read back through E14's reports list. */
export const bulkMoveMixedKindsChecks = group("bulk-move", [
  {
    id: "bulk-move.apply.mixed-kinds",
    spec: "E12 (Body: type WORKBOOK, REPORT or FOLDER; mixed kinds allowed); States (bulk move)",
    level: "MUST",
    title: "One batch mixing a workbook, a report and a folder moves each of them: all in moved, and each reads back in the destination",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const dest = await createFolder(ctx, dep);
      const wb = await createWorkbook(ctx, dep);
      const report: ItemRef = { type: "REPORT", id: (await ownReport(ctx, await documented(ctx), dep, ctx.scratch.name("moved-report"))).id };
      const folder = await createFolder(ctx, dep);
      const items = [report, wb, folder];
      expectAllMoved(ctx, await moveOk(ctx, ctx.api, dep, items, dest.id), items);
      await expectWorkbookIn(ctx, dep, wb.id, dest.id, "after the mixed batch");
      await expectFolderIn(ctx, dep, folder.id, dest.id, "after the mixed batch");
      await expectReportIn(ctx, dep, report.id, dest.id, "after the mixed batch");
    },
  },
  {
    id: "bulk-move.items.kind-and-id-distinct",
    spec: "E12 (Body: mixed kinds allowed; duplicates collapsed so one entry per distinct item); Resources (Workspace item reference {type, id})",
    level: "MUST",
    title:
      "Two references with one id and different types are two distinct items, not duplicates: a folder of the run's own after a workbook reference with the same id is answered too (moved, and reads back in the destination)",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const dest = await createFolder(ctx, dep);
      const folder = await createFolder(ctx, dep);
      // The workbook of the folder's id: the run's own where one of its workbooks has it (ids per type), else one that E9 says
      // does not exist, so that nothing of anyone else's is moved (it is then answered 404 in failed).
      const workbook = await createWorkbook(ctx, dep);
      const twin: ItemRef = { type: "WORKBOOK", id: folder.id };
      const own = workbook.id === folder.id;
      if (!own && (await ctx.api.get(workbookPath(dep, folder.id))).status !== 404)
        throw new NotExercised(
          `a workbook ${folder.id} exists beside the run's folder ${folder.id}, and is not the run's: no reference of that id the run may send`,
        );
      const r = await moveOk(ctx, ctx.api, dep, [twin, folder], dest.id);
      const answered = [...r.moved, ...r.failed].map(itemKey);
      ctx.expect.that(
        answered.includes(itemKey(folder)) && answered.includes(itemKey(twin)),
        `WORKBOOK ${folder.id} and FOLDER ${folder.id}, sent in one batch, are each answered (moved or failed)`,
        {
          expected: [itemKey(twin), itemKey(folder)],
          got: { moved: r.moved.map(itemKey), failed: r.failed.map(itemKey) },
          res: r.res,
          reason: "kinds-distinct",
        },
      );
      ctx.expect.that(
        r.moved.some((m) => itemKey(m) === itemKey(folder)),
        `the run's folder ${folder.id}, sent after WORKBOOK ${folder.id}, is moved`,
        { expected: `moved holds ${itemKey(folder)}`, got: r.moved.map(itemKey), res: r.res, reason: "kinds-distinct" },
      );
      await expectFolderIn(ctx, dep, folder.id, dest.id, `after a batch of WORKBOOK ${folder.id} and FOLDER ${folder.id}`);
    },
  },
]);
