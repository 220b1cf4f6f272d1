import { group } from "../core/check.js";
import type { CheckContext } from "../core/context.js";
import type { Response } from "../core/http.js";
import { NotExercised, NotVerifiable } from "../core/outcome.js";
import type { ItemRef } from "../core/scratch.js";
import { field, type ServedDocument } from "../core/served-operations.js";
import { allRecords, api1, documented, records, setup } from "./lib/e14.js";
import { createFolder, createWorkbook, deletedItem } from "./lib/scratch-items.js";
import { itemKey as key } from "./lib/workbook-calls.js";

/**
 * E14 rules of the workspace: bulk delete reports failures per item (facts: duplicates collapsed,
 * no rollback), and the reports list takes sortBy createdAt, updatedAt, lastViewedAt and name
 * (no cursor when sorting by lastViewedAt) and filters by folderId and search.
 */
const WRITES = ["writes", "fixture:deployment"] as const;
export const SORT_BY = ["createdAt", "updatedAt", "lastViewedAt", "name"];

async function bulkDelete(ctx: CheckContext, dep: string, items: ItemRef[]): Promise<{ res: Response; deleted: any[]; failed: any[] }> {
  // What the ledger holds was named by an answer: it is deleted only once the server shows it is the check's own.
  await ctx.scratch.requireOwn(ctx.api, dep, items.filter((i) => ctx.scratch.entries.some((m) => m.deploymentId === dep && m.ref.type === i.type && m.ref.id === i.id)));
  const res = await ctx.api.post(`${api1(dep)}/workspace/bulk-delete`, { items });
  ctx.requireRoute(res, "E14", "deleting items in bulk");
  const body = ctx.expect.json(res);
  ctx.expect.that(res.status === 200 && Array.isArray(body?.deleted) && Array.isArray(body?.failed), "a well-formed bulk delete answers 200 with deleted and failed", { expected: "200 {deleted: [...], failed: [...]}", got: `${res.status} ${res.text.slice(0, 160)}`, res, reason: "per-item-answer" });
  for (const ref of items.filter((i) => body.deleted.some((d: any) => key(d) === key(i)))) ctx.scratch.forget(dep, ref);
  return { res, deleted: body.deleted, failed: body.failed };
}

/** A report of the run's own, created by public id as the server's document spells it; tracked for cleanup. */
async function ownReport(ctx: CheckContext, doc: ServedDocument, dep: string, name: string, folderId?: number): Promise<any> {
  const path = `${api1(dep)}/reports/by-public-id/{publicId}`;
  const op = doc.require("PUT", path, "creates a report of the run's own");
  const body = op.body({ "name|title": name, ...(folderId === undefined ? {} : { folderId }) });
  const res = await ctx.api.put(path.replace("{publicId}", ctx.scratch.slug("report")), body);
  const report = setup(ctx, res, `creating report ${name}`, (r) => r.isJson && Number.isSafeInteger(r.body?.id));
  ctx.scratch.track(dep, { type: "REPORT", id: report.id }, { res, name });
  return report;
}

async function listReports(ctx: CheckContext, dep: string, query: Record<string, string | number>): Promise<{ res: Response; items: any[] }> {
  return allRecords(ctx, `${api1(dep)}/reports`, query, `the reports list (${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))})`);
}

/** Places a report in a spreadsheet cell, as the document spells the address; the placement is removed at cleanup. */
async function place(ctx: CheckContext, doc: ServedDocument, dep: string, reportId: number, external: string, as = ctx.api): Promise<Response> {
  const path = `${api1(dep)}/reports/{reportId}/connect-workbook`;
  const op = doc.require("PUT", path, "places a report in a spreadsheet");
  const address = { externalWorkbookId: external, sheetName: "Sheet1", anchorCell: "B2" };
  const url = path.replace("{reportId}", String(reportId));
  const res = await as.put(url, op.body(address));
  if (res.status < 300 && doc.find("DELETE", path)) ctx.scratch.onCleanup(`remove the placement of report ${reportId}`, async () => void (await ctx.api.delete(url, address)));
  return res;
}

export const e14WorkspaceChecks = [
  ...group("bulk-delete", [
    {
      id: "bulk-delete.items.per-item-failures",
      spec: "E14 rule 1",
      level: "MUST",
      title: "Bulk delete reports a missing item as a failure of that item and deletes the others",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const wb = await createWorkbook(ctx, dep);
        const gone = await deletedItem(ctx, dep, "WORKBOOK");
        const r = await bulkDelete(ctx, dep, [gone, wb]);
        ctx.expect.that(r.failed.some((f) => key(f) === key(gone) && typeof f?.error?.status === "number"), "the missing item is in failed, with its error status", { expected: `failed holds ${key(gone)} {error: {status, message}}`, got: r.failed, res: r.res, reason: "failure-reported" });
        ctx.expect.that(r.deleted.some((d) => key(d) === key(wb)), "the existing item is in deleted", { expected: `deleted holds ${key(wb)}`, got: r.deleted, res: r.res, reason: "others-deleted" });
      },
    },
    {
      id: "bulk-delete.items.duplicates-collapsed",
      spec: "E14 rule 1 (facts: duplicates collapsed)",
      level: "SHOULD",
      title: "An item sent twice in a bulk delete is deleted once and not reported as failed",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const wb = await createWorkbook(ctx, dep);
        const r = await bulkDelete(ctx, dep, [wb, wb]);
        ctx.expect.equal(r.deleted.filter((d) => key(d) === key(wb)).length, 1, "the item appears once in deleted", { res: r.res, reason: "once" });
        ctx.expect.equal(r.failed.filter((f) => key(f) === key(wb)).map(key), [], "its duplicate is no failure", { res: r.res, reason: "no-duplicate-failure" });
      },
    },
    {
      id: "bulk-delete.items.no-rollback",
      spec: "E14 rule 1 (facts: no rollback)",
      level: "SHOULD",
      title: "Items deleted in a bulk delete stay deleted when another item of the batch fails",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const first = await createWorkbook(ctx, dep);
        const gone = await deletedItem(ctx, dep, "WORKBOOK");
        const r = await bulkDelete(ctx, dep, [first, gone]);
        if (!r.deleted.some((d) => key(d) === key(first))) throw new NotExercised("the batch deleted nothing before its failing item");
        const read = await ctx.api.get(`${api1(dep)}/workbooks/${first.id}`);
        ctx.expect.status(read, 404, `workbook ${first.id}, reported deleted, reads 404 after the batch failed on a later item`, "stays-deleted");
      },
    },
  ]),
  ...group("reports", [
    {
      id: "reports.list.sort-by-values",
      spec: "E14 rule 5",
      level: "MUST",
      title: "The reports list accepts sortBy createdAt, updatedAt, lastViewedAt and name",
      needs: ["fixture:deployment"],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        (await documented(ctx)).require("GET", `${api1(dep)}/reports`, "lists reports");
        for (const sortBy of SORT_BY) {
          const res = await ctx.api.get(`${api1(dep)}/reports`, { sortBy });
          ctx.expect.status(res, 200, `sortBy=${sortBy} is accepted`, "sort-by-accepted");
        }
      },
    },
    {
      id: "reports.list.sorted-by-name",
      spec: "E14 rule 5",
      level: "MUST",
      title: "sortBy=name lists reports in the order of their names (either direction)",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const tag = ctx.scratch.slug("sorted");
        // Created out of name order, so that creation order is no name order in either direction.
        for (const letter of ["b", "c", "a"]) await ownReport(ctx, doc, dep, `${tag}-${letter}`);
        const { res, items } = await listReports(ctx, dep, { sortBy: "name", search: tag });
        const names = items.map((r) => field(r, "name|title")).filter((n) => typeof n === "string" && n.startsWith(tag));
        if (names.length < 3) throw new NotVerifiable(`the search for ${tag} listed ${names.length} of the 3 reports created: the order cannot be read`);
        const asc = [...names].sort();
        ctx.expect.that(JSON.stringify(names) === JSON.stringify(asc) || JSON.stringify(names) === JSON.stringify([...asc].reverse()), "the reports are in name order", { expected: `${asc.join(", ")} (or reversed)`, got: names.join(", "), res, reason: "sorted" });
      },
    },
    {
      id: "reports.list.last-viewed-no-cursor",
      spec: "E14 rule 5",
      level: "MUST",
      title: "Sorted by lastViewedAt, the reports list offers no cursor",
      needs: ["fixture:deployment"],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        (await documented(ctx)).require("GET", `${api1(dep)}/reports`, "lists reports");
        const whole = await ctx.api.get(`${api1(dep)}/reports`, { sortBy: "lastViewedAt" });
        ctx.expect.status(whole, 200, "sortBy=lastViewedAt is accepted", "sort-by-accepted");
        const all = { items: records(ctx, whole, "the reports sorted by lastViewedAt") };
        if (all.items.length < 2) throw new NotExercised(`the reports list holds ${all.items.length} report(s): a page of one could not have a next one`);
        const res = await ctx.api.get(`${api1(dep)}/reports`, { sortBy: "lastViewedAt", first: 1 });
        if (res.status >= 400 && res.status < 500) return; // first refused with this sort: no cursor either
        const body = ctx.expect.json(res);
        const cursor = body?.pageInfo?.endCursor;
        ctx.expect.that(!(body?.pageInfo?.hasNextPage === true && typeof cursor === "string" && cursor !== ""), "no endCursor to continue from is offered when sorting by lastViewedAt", { expected: "no cursor (pageInfo null, or no next page)", got: body?.pageInfo, res, reason: "no-cursor" });
      },
    },
    {
      id: "reports.list.search-filter",
      spec: "E14 rule 5",
      level: "MUST",
      title: "search lists the reports whose name holds the term, and only those",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const name = ctx.scratch.name("findme");
        const own = await ownReport(ctx, await documented(ctx), dep, name);
        const { res, items } = await listReports(ctx, dep, { search: name });
        ctx.expect.that(items.some((r) => r?.id === own.id), "the report named with the term is listed", { expected: `report ${own.id}`, got: items.map((r) => r?.id), res, reason: "match-listed" });
        const others = items.filter((r) => !JSON.stringify(r).toLowerCase().includes(name.toLowerCase()));
        ctx.expect.equal(others.map((r) => r?.id), [], "no report without the term is listed", { res, reason: "only-matches" });
      },
    },
    {
      id: "reports.list.external-workbook-filter",
      spec: "E14 rule 5",
      level: "MUST",
      title: "externalWorkbookId lists the reports placed in that spreadsheet, and only those",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const own = await ownReport(ctx, doc, dep, ctx.scratch.name("placed"));
        const external = ctx.scratch.slug("sheet");
        setup(ctx, await place(ctx, doc, dep, own.id, external), `placing report ${own.id} in spreadsheet ${external}`);
        const { res, items } = await listReports(ctx, dep, { externalWorkbookId: external });
        ctx.expect.that(items.some((r) => r?.id === own.id), "the report placed in the spreadsheet is listed", { expected: `report ${own.id}`, got: items.map((r) => r?.id), res, reason: "match-listed" });
        ctx.expect.equal(items.filter((r) => r?.id !== own.id).map((r) => r?.id), [], "no report outside the spreadsheet is listed", { res, reason: "only-matches" });
      },
    },
    {
      id: "reports.placement.read-access-suffices",
      spec: "Authentication 4 (connect report to a spreadsheet: read access)",
      level: "MUST",
      title: "A caller with only read access to a report can place it in a spreadsheet",
      needs: [...WRITES, "token:readOnly", "fixture:readOnlyFolder"],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const own = await ownReport(ctx, doc, dep, ctx.scratch.name("read-only"), ctx.fixture("readOnlyFolder").id);
        const res = await place(ctx, doc, dep, own.id, ctx.scratch.slug("sheet"), ctx.as("readOnly"));
        ctx.requireRoute(res, "E14", "placing a report in a spreadsheet");
        ctx.expect.that(res.status >= 200 && res.status < 300, "the read-only caller's placement is accepted", { expected: "2xx", got: `${res.status} ${res.text.slice(0, 160)}`, res, reason: "read-suffices" });
      },
    },
    {
      id: "reports.list.folder-filter",
      spec: "E14 rule 5",
      level: "MUST",
      title: "folderId lists the reports of that folder, and only those",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const folder = await createFolder(ctx, dep);
        const own = await ownReport(ctx, await documented(ctx), dep, ctx.scratch.name("in-folder"), folder.id);
        if (field(own, "folderId") !== folder.id) throw new NotVerifiable(`the report created with folderId ${folder.id} shows folderId ${JSON.stringify(field(own, "folderId"))}`);
        const { res, items } = await listReports(ctx, dep, { folderId: folder.id });
        ctx.expect.that(items.some((r) => r?.id === own.id), "the folder's report is listed", { expected: `report ${own.id}`, got: items.map((r) => r?.id), res, reason: "match-listed" });
        ctx.expect.equal(items.filter((r) => "folderId" in r && r.folderId !== folder.id).map((r) => r.id), [], "no report of another folder is listed", { res, reason: "only-matches" });
      },
    },
  ]),
];
