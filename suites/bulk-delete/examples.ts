import { group } from "../../core/check/check.js";
import { readOnlyFolder } from "../lib/read-only-folder.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { NotExercised } from "../../core/model/outcome.js";
import type { ItemRef } from "../../core/ledger/scratch.js";
import { documented, servedOrPlain } from "../lib/e14.js";
import { WRITES } from "../lib/needs.js";
import { createFolder, createWorkbook, deletedItem, folderSitsIn } from "../lib/scratch-items.js";
import { itemKey as key } from "../lib/workbook-calls.js";
import { listReports, ownReport } from "../lib/reports.js";
import { inFolder } from "../lib/workbook-place.js";
import { withoutTimestamps } from "../lib/values.js";

/** E14 rule 1: bulk delete reports failures per item (facts: duplicates collapsed, no rollback, 403 without manage access, mixed kinds). */

/** Deletes `items` in one bulk delete: a well-formed one answers 200 with deleted and failed; what it deleted leaves the ledger. */
async function bulkDelete(ctx: CheckContext, dep: string, items: ItemRef[], api = ctx.api): Promise<{ res: Response; deleted: any[]; failed: any[] }> {
  // What the ledger holds was named by an answer: it is deleted only once the server shows it is the check's own.
  await ctx.scratch.requireOwn(
    ctx.api,
    dep,
    items.filter((i) => ctx.scratch.entries.some((m) => m.deploymentId === dep && m.ref.type === i.type && m.ref.id === i.id)),
  );
  const op = await servedOrPlain(ctx, "bulkDeleteWorkspaceItems");
  const res = await api.call("bulkDeleteWorkspaceItems", { deploymentId: dep }, { body: { items } });
  ctx.requireRoute(res, "E14", "deleting items in bulk");
  ctx.expect.json(res);
  const body = op.record(res);
  ctx.expect.that(
    res.status === 200 && Array.isArray(body?.deleted) && Array.isArray(body?.failed),
    "a well-formed bulk delete answers 200 with deleted and failed",
    { expected: "200 {deleted: [...], failed: [...]}", got: `${res.status} ${res.text.slice(0, 160)}`, res, reason: "per-item-answer" },
  );
  for (const ref of items.filter((i) => body.deleted.some((d: any) => key(d) === key(i)))) ctx.scratch.forget(dep, ref);
  return { res, deleted: body.deleted, failed: body.failed };
}

export const bulkDeleteChecks = group("bulk-delete", [
  {
    id: "bulk-delete.items.per-item-failures",
    spec: "E14 rule 1; Errors 2 (404: workbook missing)",
    level: "MUST",
    title: "Bulk delete reports a missing item as a failure of that item and deletes the others: each reads 404 by E9 afterwards",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const wb = await createWorkbook(ctx, dep);
      const gone = await deletedItem(ctx, dep, "WORKBOOK");
      const r = await bulkDelete(ctx, dep, [gone, wb]);
      ctx.expect.that(
        r.failed.some((f) => key(f) === key(gone) && typeof f?.error?.status === "number"),
        "the missing item is in failed, with its error status",
        { expected: `failed holds ${key(gone)} {error: {status, message}}`, got: r.failed, res: r.res, reason: "failure-reported" },
      );
      ctx.expect.that(
        r.deleted.some((d) => key(d) === key(wb)),
        "the existing item is in deleted",
        { expected: `deleted holds ${key(wb)}`, got: r.deleted, res: r.res, reason: "others-deleted" },
      );
      // Deleted is gone on every read path: E9 answers a missing workbook 404 (Errors 2), not the record marked archived.
      const read = await ctx.api.call("getWorkbook", { deploymentId: dep, workbookId: wb.id });
      ctx.expect.status(read, 404, `workbook ${wb.id}, reported deleted, read by E9`, "gone-on-read");
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
      ctx.expect.equal(r.failed.filter((f) => key(f) === key(wb)).map(key), [], "its duplicate is no failure", {
        res: r.res,
        reason: "no-duplicate-failure",
      });
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
      const read = await ctx.api.call("getWorkbook", { deploymentId: dep, workbookId: first.id });
      ctx.expect.status(read, 404, `workbook ${first.id}, reported deleted, reads 404 after the batch failed on a later item`, "stays-deleted");
    },
  },
  {
    id: "bulk-delete.items.forbidden-reported",
    spec: "E14 rule 1 (facts: 403 without manage access)",
    // SHOULD: per-item failures are stated; who may delete (manage access) and the 403 come from the published docs.
    level: "SHOULD",
    title: "An item the caller may only read is reported in failed with status 403, and still exists after the batch",
    needs: [...WRITES, "token:readOnly"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const locked = await createWorkbook(ctx, dep, (await readOnlyFolder(ctx, dep)).id);
      const r = await bulkDelete(ctx, dep, [locked], ctx.as("readOnly"));
      const failure = r.failed.find((f) => key(f) === key(locked));
      ctx.expect.equal(failure?.error?.status, 403, `workbook ${locked.id}, which the readOnly token may only read, fails with status 403`, {
        res: r.res,
        reason: "forbidden-403",
      });
      const read = await ctx.api.call("getWorkbook", { deploymentId: dep, workbookId: locked.id });
      ctx.expect.status(read, 200, `workbook ${locked.id} after the refused delete (E9, main token)`, "still-there");
    },
  },
  {
    id: "bulk-delete.items.refused-item-intact",
    spec: "E14 rule 1 (delete items in bulk with per-item failures)",
    // MUST: a failure reported for an item is that item not deleted; who may delete it (the 403) is the SHOULD check's.
    level: "MUST",
    title:
      "An item a bulk delete reports in failed is not deleted in part: the readOnly key's workbook of the run's own reads back as before (E9), a report of that workbook is still listed, and so is a report in the folder the key can only read",
    needs: [...WRITES, "token:readOnly"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const doc = await documented(ctx);
      const lockedFolder = (await readOnlyFolder(ctx, dep)).id;
      const locked = await createWorkbook(ctx, dep, lockedFolder);
      // A report of that workbook, where the report create names one: what a delete that goes ahead of its access check removes first.
      const workbookField = doc.findNamed("upsertReportByPublicId")?.bodyProperty("workbookId|workbook");
      const reportName = ctx.scratch.name("report-of-locked");
      const report = workbookField ? await ownReport(ctx, doc, dep, reportName, undefined, { [workbookField]: locked.id }) : undefined;
      // Every kind the caller may only read: a report in that folder is sent too (a server once deleted a report it reported refused).
      const lockedReportName = ctx.scratch.name("locked-report");
      const lockedReport: ItemRef = { type: "REPORT", id: (await ownReport(ctx, doc, dep, lockedReportName, lockedFolder)).id };
      const before = ctx.expect.ok(await ctx.api.call("getWorkbook", { deploymentId: dep, workbookId: locked.id }), "Workbook");
      const r = await bulkDelete(ctx, dep, [locked, lockedReport], ctx.as("readOnly"));
      if (r.failed.some((f) => key(f) === key(lockedReport))) {
        const still = await listReports(ctx, dep, { search: lockedReportName });
        ctx.expect.that(
          still.items.some((x) => x?.id === lockedReport.id),
          `report ${lockedReport.id}, in a folder the readOnly key may only read, whose delete was reported failed, is still listed`,
          { expected: `report ${lockedReport.id}`, got: still.items.map((x) => x?.id), res: still.res, reason: "still-there" },
        );
      }
      if (!r.failed.some((f) => key(f) === key(locked)))
        throw new NotExercised(
          `the readOnly key's bulk delete of workbook ${locked.id}, in a folder it may only read, was not reported in failed: nothing was refused`,
        );
      const read = await ctx.api.call("getWorkbook", { deploymentId: dep, workbookId: locked.id });
      ctx.expect.status(read, 200, `workbook ${locked.id} after its delete was reported failed (E9, main token)`, "still-there");
      ctx.expect.equal(
        withoutTimestamps(read.body),
        withoutTimestamps(before),
        `workbook ${locked.id}, whose delete was reported failed, reads as before (timestamps aside)`,
        {
          res: read,
          reason: "still-there",
        },
      );
      if (!report) return;
      const listed = await listReports(ctx, dep, { search: reportName });
      ctx.expect.that(
        listed.items.some((x) => x?.id === report.id),
        `report ${report.id} of workbook ${locked.id}, whose delete was reported failed, is still listed`,
        { expected: `report ${report.id}`, got: listed.items.map((x) => x?.id), res: listed.res, reason: "still-there" },
      );
    },
  },
  {
    id: "bulk-delete.items.folder-contents-to-root",
    spec: "E14 rule 1 (facts: deleting a folder moves its direct contents to the root)",
    // SHOULD: where a deleted folder's contents go is the published documentation's, not the spec's.
    level: "SHOULD",
    title: "Bulk deleting a folder that is not at the root moves its workbook to the root, not to the folder's parent",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      // A nested folder is the class where "the root" and "the parent" differ (rule 2).
      const parent = await createFolder(ctx, dep);
      const folder = await createFolder(ctx, dep, parent.id);
      const inside = await createWorkbook(ctx, dep, folder.id);
      const r = await bulkDelete(ctx, dep, [folder]);
      if (!r.deleted.some((d) => key(d) === key(folder)))
        throw new NotExercised(`folder ${folder.id} was not deleted: ${JSON.stringify(r.failed).slice(0, 160)}`);
      const read = await ctx.api.call("getWorkbook", { deploymentId: dep, workbookId: inside.id });
      ctx.expect.status(read, 200, `workbook ${inside.id}, inside the deleted folder, read by E9`, "still-there");
      ctx.expect.equal(
        read.body?.folderId ?? null,
        null,
        `workbook ${inside.id} is at the root after its folder ${folder.id} (inside ${parent.id}) was deleted`,
        {
          res: read,
          reason: "contents-to-root",
        },
      );
    },
  },
  {
    id: "bulk-delete.items.mixed-kinds",
    spec: "E14 rule 1 (facts: items {type, id} of WORKBOOK, REPORT, FOLDER)",
    // SHOULD: the item types of a bulk delete come from the published docs, not the spec.
    level: "SHOULD",
    title: "One bulk delete mixing a workbook, a report and an empty folder deletes each of them: all in deleted, none found afterwards",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const doc = await documented(ctx);
      const name = ctx.scratch.name("deleted-report");
      const report: ItemRef = { type: "REPORT", id: (await ownReport(ctx, doc, dep, name)).id };
      const items = [await createWorkbook(ctx, dep), report, await createFolder(ctx, dep)];
      const r = await bulkDelete(ctx, dep, items);
      ctx.expect.equal(r.failed.map(key), [], "the run's own items of each kind delete without failures", { res: r.res, reason: "mixed-failed" });
      const wb = await ctx.api.call("getWorkbook", { deploymentId: dep, workbookId: items[0].id });
      ctx.expect.status(wb, 404, `workbook ${items[0].id} after the bulk delete (E9)`, "still-there");
      const { res, items: found } = await listReports(ctx, dep, { search: name });
      ctx.expect.that(!found.some((x) => x?.id === report.id), `report ${report.id} is no longer listed`, {
        expected: "not listed",
        got: found.map((x) => x?.id),
        res,
        reason: "still-there",
      });
      const { sits, seen } = await folderSitsIn(ctx.api, dep, items[2].id, null);
      ctx.expect.that(!sits, `folder ${items[2].id} is no longer in the root`, { expected: "gone", got: seen, reason: "still-there" });
    },
  },
  {
    id: "bulk-delete.items.folder-with-sub-folder-400",
    spec: "E14 rule 1 (facts: 400 a folder that still has sub-folders)",
    // SHOULD: per-item failures are stated; that a folder holding sub-folders is refused, and with 400, comes from the published docs.
    level: "SHOULD",
    title:
      "A folder that still holds a sub-folder is reported in failed with status 400, and it, its sub-folder and its workbook are all still where they were",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const outer = await createFolder(ctx, dep);
      const inner = await createFolder(ctx, dep, outer.id);
      // Its direct contents too: a delete moves them to the root (facts), and a refused one moves nothing.
      const workbook = await createWorkbook(ctx, dep, outer.id);
      const r = await bulkDelete(ctx, dep, [outer]);
      const failure = r.failed.find((f) => key(f) === key(outer));
      ctx.expect.equal(failure?.error?.status, 400, `folder ${outer.id}, which holds folder ${inner.id}, fails with status 400`, {
        res: r.res,
        reason: "sub-folders-400",
      });
      // Cleanup moves every folder to the root first, then deletes the child and the parent on their own.
      for (const [folder, parent] of [
        [outer, null],
        [inner, outer.id],
      ] as const) {
        const { sits, seen } = await folderSitsIn(ctx.api, dep, folder.id, parent);
        ctx.expect.that(sits, `folder ${folder.id} is still in ${parent ?? "the root"} after the refused delete`, {
          expected: `in ${parent ?? "the root"}`,
          got: seen,
          reason: "still-there",
        });
      }
      const placed = await inFolder(ctx, ctx.api, dep, workbook.id, outer.id);
      ctx.expect.that(placed.inside, `workbook ${workbook.id} is still in folder ${outer.id} after the refused delete (read from ${placed.how})`, {
        expected: `in folder ${outer.id}`,
        got: "elsewhere",
        res: placed.res,
        reason: "still-there",
      });
    },
  },
]);
