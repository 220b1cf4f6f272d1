import { group } from "../../core/check/check.js";
import { readOnlyFolder } from "../lib/read-only-folder.js";
import { editableFolder } from "../lib/editable-folder.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { cloneAndRead } from "./clone-and-read.js";
import { dashboardReportIds, knownReportIds, reportRefPaths } from "./report-refs.js";
import { readWorkbook } from "../lib/workbook-writes.js";
import { walkAgainUntil, walkCursor, wholeList } from "../../core/transport/pagination.js";
import { pathTo } from "../../core/transport/client.js";
import { listReports, ownReport } from "../lib/reports.js";
import { documented } from "../lib/e14.js";
import { field } from "../../core/served/served-operations.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { createFolder } from "../lib/scratch-items.js";
import { inFolder } from "../lib/workbook-place.js";
import { duplicate, unlessAtWorkbookLimit, ownerOf, ownWorkbook } from "../lib/workbook-writes.js";

/** E10 rules 4-5: where the clone is created (the source's folder or the root, by the caller's access) and who owns it. */
export const clonePlacementChecks = group("clone", [
  {
    id: "clone.placement.same-folder-with-edit",
    spec: "E10 rule 4",
    level: "MUST",
    title: "With edit access to the source's folder, the clone is created in that folder",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const folder = await createFolder(ctx, dep);
      const { workbook } = await ownWorkbook(ctx, ctx.api, dep, { folderId: folder.id });
      const { answer, res } = await cloneAndRead(ctx, dep, workbook.id);
      const placed = await inFolder(ctx, ctx.api, dep, answer.id, folder.id, { answer, witness: workbook.id });
      ctx.expect.that(placed.inside, `the clone is in the source's folder ${folder.id}, which the caller created and may edit (read from ${placed.how})`, {
        expected: `in folder ${folder.id}`,
        got: `elsewhere (${placed.how})`,
        res: placed.res ?? res,
        reason: "folder",
      });
    },
  },
  {
    id: "clone.placement.reports-in-folder",
    spec: "E10 rule 4",
    level: "MUST",
    title: "With edit access to the source's folder, the clone's copied reports are created in that folder too, as the reports list (or E8) shows them",
    needs: ["writes", "fixture:deployment", "fixture:publishedWorkbookInFolder"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { workbook: source } = await readWorkbook(ctx, ctx.api, dep, ctx.fixture("publishedWorkbookInFolder").id);
      const known = await knownReportIds(ctx.api, dep, [source.publishedDashboard]);
      const paths = reportRefPaths(source.publishedDashboard?.config, known);
      if (!dashboardReportIds(source.publishedDashboard, paths).length)
        throw new NotExercised(`the published workbook ${source.id} names no report in its dashboard: no copied report to place`);
      const { answer, clone } = await cloneAndRead(ctx, dep, source.id);
      const placed = await inFolder(ctx, ctx.api, dep, answer.id, source.folderId!, { answer, witness: source.id });
      if (!placed.inside)
        throw new NotExercised(
          `the clone is not in the source's folder ${source.folderId}: the caller may not edit it there (clone.placement.same-folder-with-edit judges that)`,
        );
      const named = dashboardReportIds(clone.publishedDashboard, paths);
      const { folderOf, res } = await reportsAsListed(ctx, dep, (listed) => named.every((id) => listed.folderOf.has(id)));
      const shown = named.filter((id) => folderOf.has(id));
      if (!shown.length) throw new NotExercised(`neither the reports list nor E8 shows the folder of a report the clone ${answer.id} names`);
      ctx.expect.equal(
        shown.filter((id) => folderOf.get(id) !== source.folderId).map((id) => `report ${id} in ${JSON.stringify(folderOf.get(id))}`),
        [],
        `every report the clone names is in the source's folder ${source.folderId}, as the clone is`,
        { res, reason: "reports-folder" },
      );
    },
  },
  {
    id: "clone.placement.own-reports-in-folder",
    spec: "E10 rules 1 and 4",
    level: "MUST",
    title:
      "A workbook of the run's own in a folder of its own, with a report of its own: its clone's copied report (the reports list's workbookId names the clone) is created in that folder too",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const doc = await documented(ctx);
      const create = doc.requireNamed("upsertReportByPublicId", "creates the report the source workbook holds");
      const workbookField = create.bodyProperty("workbookId|workbook");
      if (workbookField === undefined)
        throw new NotVerifiable("the server's document shows no workbook in a report create: the run cannot give a workbook of its own a report");
      const folder = await createFolder(ctx, dep);
      const { workbook: source } = await ownWorkbook(ctx, ctx.api, dep, { folderId: folder.id });
      await ownReport(ctx, doc, dep, ctx.scratch.name("report"), folder.id, { [workbookField]: source.id });
      const belongsTo = (r: any, id: number) => field(r, "workbookId|workbook") === id;
      const holds = (id: number) => (listed: ReportsListed) => listed.reports.some((r) => belongsTo(r, id));
      if (!holds(source.id)(await reportsAsListed(ctx, dep, holds(source.id))))
        throw new NotVerifiable(`the reports list shows no report with ${workbookField} ${source.id}: which reports a clone copied cannot be told`);
      const { answer } = await cloneAndRead(ctx, dep, source.id);
      const placed = await inFolder(ctx, ctx.api, dep, answer.id, folder.id, { answer, witness: source.id });
      if (!placed.inside) throw new NotExercised(`the clone is not in the source's folder ${folder.id}: clone.placement.same-folder-with-edit judges that`);
      const listed = await reportsAsListed(ctx, dep, holds(answer.id));
      const copies = listed.reports.filter((r) => belongsTo(r, answer.id));
      // E10 rule 1: the clone copies its reports; a clone with none listed is clone.copy.full-copy's to judge.
      if (!copies.length) throw new NotExercised(`the reports list shows no report of the clone ${answer.id}`);
      ctx.expect.equal(
        copies.filter((r) => listed.folderOf.get(r.id) !== folder.id).map((r) => `report ${r.id} in ${JSON.stringify(listed.folderOf.get(r.id))}`),
        [],
        `every report of the clone ${answer.id} is in the source's folder ${folder.id}, as the clone is`,
        { res: listed.res, reason: "reports-folder" },
      );
    },
  },
  {
    id: "clone.placement.read-only-to-root",
    spec: "E10 rule 4",
    level: "MUST",
    title: "With only read access to the source's folder, the clone is created at the workspace root",
    needs: ["writes", "fixture:deployment", "token:readOnly"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const folderId = (await readOnlyFolder(ctx, dep)).id;
      const { workbook } = await ownWorkbook(ctx, ctx.api, dep, { folderId });
      const res = await duplicate(ctx.scratch, ctx.as("readOnly"), dep, workbook.id);
      unlessAtWorkbookLimit(res, `the readOnly token cloning workbook ${workbook.id}`);
      ctx.require(res, "E10", "the readOnly token cloning a workbook of fixtures.readOnlyFolder (it needs read access there and the AI BI User role)");
      const clone = ctx.expect.ok(res, "Workbook");
      ctx.expect.that(clone.folderId == null, "the clone made with read-only access to the source's folder is at the root", {
        reason: "at-root",
        expected: "folderId null",
        got: clone.folderId,
        res,
      });
    },
  },
  {
    id: "clone.placement.root-stays-root",
    spec: "E10 rule 4",
    level: "MUST",
    title: "The clone of a workbook at the root is created at the root",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const { workbook } = await ownWorkbook(ctx, ctx.api, dep);
      if (workbook.folderId != null)
        throw new NotExercised(`the workbook created without folderId is in folder ${workbook.folderId}: there is no root workbook to clone`);
      const { answer: clone, res } = await cloneAndRead(ctx, dep, workbook.id);
      ctx.expect.that(clone.folderId == null, "the clone of a root workbook is at the root", {
        reason: "at-root",
        expected: "folderId null",
        got: clone.folderId,
        res,
      });
    },
  },
  {
    id: "clone.owner.caller-owns",
    spec: "E10 rule 5",
    level: "MUST",
    title: "The caller owns the clone, not the source's owner",
    needs: ["writes", "fixture:deployment", "token:readOnly"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const me = ownerOf((await ownWorkbook(ctx, ctx.api, dep)).workbook);
      if (me === undefined) throw new NotVerifiable("the server shows no owner on workbooks (createdBy, user, userId are all optional)");
      const { workbook: theirs } = await ownWorkbook(ctx, ctx.as("readOnly"), dep, { folderId: (await editableFolder(ctx, dep)).id });
      if (ownerOf(theirs) === undefined || ownerOf(theirs) === me)
        throw new NotExercised("the readOnly token's workbook shows no owner distinct from the main token's");
      const { answer, res } = await cloneAndRead(ctx, dep, theirs.id);
      ctx.expect.equal(ownerOf(answer), me, "the owner of the clone (the caller, as shown on a workbook it created)", { res, reason: "owner" });
    },
  },
]);

interface ReportsListed {
  reports: any[];
  folderOf: Map<number, unknown>;
  res: Response;
}

/**
 * The reports as the reports list (E14) shows them, and each report's folder: there, and in E8
 * where it lists reports beside workbooks (its Workbook type allows it). The reports list is an
 * E14 endpoint a server may not serve: then E8 alone is read.
 */
async function reportsAsListed(ctx: CheckContext, dep: string, shows: (listed: ReportsListed) => boolean): Promise<ReportsListed> {
  // Walked again until it shows what the check looks for: the run's other checks delete reports and
  // workbooks beside this one, and a cursor that is a position then skips one.
  return walkAgainUntil(() => reportsListedOnce(ctx, dep), shows);
}

async function reportsListedOnce(ctx: CheckContext, dep: string): Promise<ReportsListed> {
  const probe = await ctx.api.call("listReports", { deploymentId: dep }, { query: { first: 1 } });
  const reports = probe.status === 200 ? await listReports(ctx, dep, {}) : { items: [] as any[], res: probe };
  const walk = wholeList(await walkCursor<any>(ctx.api, pathTo("listWorkbooks", { deploymentId: dep }), { first: 100 }), "workbooks");
  const folderOf = new Map(
    [...walk.items.filter((i) => i?.type === "REPORT"), ...reports.items].filter((r) => r && "folderId" in r).map((r) => [r.id, r.folderId]),
  );
  return { reports: reports.items, folderOf, res: reports.res };
}
