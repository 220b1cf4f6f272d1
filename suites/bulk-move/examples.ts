import type { Api } from "../../core/transport/api.js";
import { group } from "../../core/model/check.js";
import type { CheckContext } from "../../core/model/context.js";
import type { Response } from "../../core/transport/http.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import { walkCursor, wholeList } from "../../core/transport/pagination.js";
import type { ItemRef } from "../../core/ledger/scratch.js";
import { ownReport } from "../e14/report-calls.js";
import { allRecords, documented } from "../lib/e14.js";
import { createFolder, createWorkbook, deletedItem, folderSitsIn, parentOfFolder } from "../lib/scratch-items.js";
import { expectNoneMoved } from "./refused-move.js";
import { bulkMove, itemKey as key, workbooksPath } from "../lib/workbook-calls.js";
import { expectAnswerIsStored, putBySlug, unlessAtWorkbookLimit } from "../lib/workbook-writes.js";
import { pathTo } from "../../core/spec/client.js";
import { LIMITS } from "../../core/spec/operations.js";

/** For bodies that are malformed on purpose. */
/** Limits: up to 100 items per bulk move; one past it. */
const LIMIT = LIMITS.bulkMoveItems;
const OVER_LIMIT = LIMIT + 1;
const CREATE_IN_PARALLEL = 10;

interface Moved {
  res: Response;
  moved: any[];
  failed: any[];
}

/** Sends a bulk move; a well-formed one must answer 200 (else the check is blocked by E12's owner) with the BulkMoveResponse shape. */
async function moveOk(ctx: CheckContext, api: Api, dep: string, items: ItemRef[], folderId: number | null): Promise<Moved> {
  const res = await bulkMove(api, dep, items, folderId);
  ctx.require(res, "E12", `moving ${items.length} item(s) into ${folderId ?? "the root"}`);
  const body = ctx.expect.ok(res, "BulkMoveResponse");
  return { res, moved: body.moved, failed: body.failed };
}

/** The failure reported for an item; the check fails when the item is not in failed. */
function failureOf(ctx: CheckContext, r: Moved, item: ItemRef, why: string): any {
  const f = r.failed.find((x) => key(x) === key(item));
  ctx.expect.that(f !== undefined, `${why}: the item is reported in failed`, {
    reason: "in-failed",
    expected: `failed holds ${key(item)}`,
    got: { moved: r.moved.map(key), failed: r.failed.map(key) },
    res: r.res,
  });
  ctx.expect.that(!r.moved.some((x) => key(x) === key(item)), `${why}: the item is not also in moved`, {
    expected: `moved without ${key(item)}`,
    got: r.moved.map(key),
    res: r.res,
    reason: "not-also-moved",
  });
  return f;
}

function expectAllMoved(ctx: CheckContext, r: Moved, items: ItemRef[]): void {
  ctx.expect.equal(r.failed.map(key), [], "the run's own items move without failures", { res: r.res, reason: "own-items-move" });
  const missing = items.map(key).filter((k) => !r.moved.some((x) => key(x) === k));
  ctx.expect.that(missing.length === 0, "every item sent is listed in moved", {
    expected: items.map(key),
    got: r.moved.map(key),
    res: r.res,
    reason: "all-moved",
  });
}

/** The workbook reads back in `folderId` (null: the root), as E9's folderId shows. */
async function expectWorkbookIn({ api, expect }: CheckContext, dep: string, id: number, folderId: number | null, what: string): Promise<void> {
  const res = await api.call("getWorkbook", { deploymentId: dep, workbookId: id });
  const body = expect.ok(res);
  if (!("folderId" in body)) throw new NotVerifiable(`E9 shows no folderId (an optional field) for workbook ${id}: its placement cannot be read back`);
  expect.equal(body.folderId, folderId, `${what}: workbook ${id} reads back (E9 folderId) in ${folderId ?? "the root"}`, { res, reason: "reads-back" });
}

async function expectFolderIn(ctx: CheckContext, dep: string, id: number, parentId: number | null, what: string): Promise<void> {
  const { sits, seen } = await folderSitsIn(ctx.api, dep, id, parentId);
  ctx.expect.that(sits, `${what}: folder ${id} sits in ${parentId ?? "the root"}`, {
    expected: `in ${parentId ?? "the root"}`,
    got: seen,
    reason: "folder-placement",
  });
}

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

/** Creates `n` workbooks of the run's own at the root, a few at a time. */
async function manyWorkbooks(ctx: CheckContext, dep: string, n: number): Promise<ItemRef[]> {
  const out: ItemRef[] = [];
  // A plan may cap a deployment's workbooks (Limits: plan-dependent): reaching the cap is no
  // verdict on E11, only a batch this size that could not be made.
  const one = async (): Promise<ItemRef> => {
    const slug = ctx.scratch.slug("wb");
    const res = await putBySlug(ctx.scratch, ctx.api, dep, slug, { name: ctx.scratch.name("workbook") });
    unlessAtWorkbookLimit(res, `creating workbook ${out.length + 1} of the ${n} a batch of that size needs`);
    return { type: "WORKBOOK", id: ctx.require(res, "E11", "creating a workbook of its own", (r) => r.isJson && Number.isSafeInteger(r.body?.id)).id };
  };
  while (out.length < n) out.push(...(await Promise.all(Array.from({ length: Math.min(CREATE_IN_PARALLEL, n - out.length) }, one))));
  // Created concurrently, ids follow arrival order; sorted, the same seed sends the same batch.
  return out.sort((a, b) => a.id - b.id);
}

const WRITES = ["writes", "fixture:deployment"] as const;

export const bulkMoveChecks = group("bulk-move", [
  {
    id: "bulk-move.response.schema",
    spec: "E12 (Response); Errors 3",
    level: "MUST",
    title: "A well-formed bulk move answers 200 with moved (Workbook records) and failed ({type, id, error: {message, status}})",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const dest = await createFolder(ctx, dep);
      const wb = await createWorkbook(ctx, dep);
      const gone = await deletedItem(ctx, dep, "WORKBOOK");
      await moveOk(ctx, ctx.api, dep, [wb, gone], dest.id);
    },
  },
  {
    id: "bulk-move.items.each-once",
    spec: "E12 (Body: duplicates collapsed)",
    level: "MUST",
    title: "Duplicates collapse: moved and failed together list each distinct item exactly once",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const dest = await createFolder(ctx, dep);
      const [a, b] = [await createWorkbook(ctx, dep), await createWorkbook(ctx, dep)];
      const gone = await deletedItem(ctx, dep, "WORKBOOK");
      const r = await moveOk(ctx, ctx.api, dep, [a, b, a, gone, b, gone], dest.id);
      const answered = [...r.moved, ...r.failed].map(key).sort();
      ctx.expect.equal(answered, [a, b, gone].map(key).sort(), "moved and failed hold each of the 3 distinct items once", { res: r.res, reason: "each-once" });
    },
  },
  {
    id: "bulk-move.apply.reads-back",
    spec: "States (bulk move); E12 (Body)",
    level: "MUST",
    title: "A moved item reads back in the destination: a workbook's folderId, a folder's parent; null is the root",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const dest = await createFolder(ctx, dep);
      const wb = await createWorkbook(ctx, dep);
      const folder = await createFolder(ctx, dep);
      expectAllMoved(ctx, await moveOk(ctx, ctx.api, dep, [wb, folder], dest.id), [wb, folder]);
      await expectWorkbookIn(ctx, dep, wb.id, dest.id, "after the move into a folder");
      await expectFolderIn(ctx, dep, folder.id, dest.id, "after the move into a folder");
      expectAllMoved(ctx, await moveOk(ctx, ctx.api, dep, [wb, folder], null), [wb, folder]);
      await expectWorkbookIn(ctx, dep, wb.id, null, "after the move to the root (folderId null)");
      await expectFolderIn(ctx, dep, folder.id, null, "after the move to the root (folderId null)");
    },
  },
  {
    id: "bulk-move.response.moved-as-stored",
    spec: "E12 (moved: Workbook records as the single-item move returns them)",
    level: "MUST",
    title: "Each workbook record in moved is the workbook as E9 reads it next, in its new folder",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const dest = await createFolder(ctx, dep);
      const wb = await createWorkbook(ctx, dep);
      const r = await moveOk(ctx, ctx.api, dep, [wb], dest.id);
      expectAllMoved(ctx, r, [wb]);
      for (const record of r.moved.filter((m) => key(m) === key(wb))) await expectAnswerIsStored(ctx, ctx.api, dep, record, r.res, "the moved record");
    },
  },
  {
    id: "bulk-move.response.empty-failed-all-applied",
    spec: "E12 Rules (an empty failed means the whole batch applied)",
    level: "MUST",
    title: "When failed is empty, every item of the batch has moved",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const dest = await createFolder(ctx, dep);
      const items = [await createWorkbook(ctx, dep), await createFolder(ctx, dep), await createWorkbook(ctx, dep)];
      const r = await moveOk(ctx, ctx.api, dep, items, dest.id);
      ctx.expect.equal(r.failed.map(key), [], "the run's own items move into the run's own folder without failures", { res: r.res, reason: "own-items-move" });
      for (const item of items) {
        if (item.type === "WORKBOOK") await expectWorkbookIn(ctx, dep, item.id, dest.id, "failed was empty");
        else await expectFolderIn(ctx, dep, item.id, dest.id, "failed was empty");
      }
    },
  },
  {
    id: "bulk-move.apply.no-rollback",
    spec: "E12 Rules (each item its own transaction)",
    level: "MUST",
    title: "An item that fails does not undo the moves of the items before it",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const dest = await createFolder(ctx, dep);
      const wb = await createWorkbook(ctx, dep);
      const gone = await deletedItem(ctx, dep, "WORKBOOK");
      const r = await moveOk(ctx, ctx.api, dep, [wb, gone], dest.id);
      failureOf(ctx, r, gone, "the later, missing item");
      ctx.expect.that(
        r.moved.some((x) => key(x) === key(wb)),
        "the earlier item is listed in moved",
        { expected: key(wb), got: r.moved.map(key), res: r.res, reason: "earlier-moved" },
      );
      await expectWorkbookIn(ctx, dep, wb.id, dest.id, "the earlier move stays after the later item failed");
    },
  },
  {
    id: "bulk-move.response.moved-in-order",
    spec: "E12 Rules (applied one at a time in the given order)",
    level: "SHOULD",
    title: "moved lists the items in the order they were sent",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const dest = await createFolder(ctx, dep);
      const [a, b, c] = [await createWorkbook(ctx, dep), await createWorkbook(ctx, dep), await createWorkbook(ctx, dep)];
      // Neither the creation order nor its reverse: an order only the request gives.
      const sent = [c, a, b];
      const r = await moveOk(ctx, ctx.api, dep, sent, dest.id);
      expectAllMoved(ctx, r, sent);
      ctx.expect.equal(r.moved.map(key), sent.map(key), "moved keeps the order of items", { res: r.res, reason: "moved-order" });
    },
  },
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
    needs: [...WRITES, "fixture:namedOtherDeployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const other = ctx.fixture("namedOtherDeployment").id;
      const foreign = await createWorkbook(ctx, other);
      const dest = await createFolder(ctx, dep);
      const r = await moveOk(ctx, ctx.api, dep, [foreign], dest.id);
      ctx.expect.equal(failureOf(ctx, r, foreign, "an item of another deployment").error?.status, 404, "an item of another deployment fails with status 404", {
        res: r.res,
        reason: "failure-status",
      });
      await expectWorkbookIn(ctx, other, foreign.id, null, "in its own deployment, untouched");
    },
  },
  {
    id: "bulk-move.failures.no-access-403",
    spec: "E12 (failed); Authentication 4",
    level: "MUST",
    title: "An item the caller may not move is reported in failed with status 403 and stays where it is",
    needs: [...WRITES, "token:readOnly", "fixture:readOnlyFolder"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const locked: ItemRef = { type: "FOLDER", id: ctx.fixture("readOnlyFolder").id };
      const home = await parentOfFolder(ctx.api, dep, locked.id);
      if (home === undefined)
        throw new NotVerifiable(
          `fixtures.readOnlyFolderId ${locked.id} was not found in the folder tree of deployment ${dep} (the folders list is an E14 endpoint), so a wrong move could not be undone`,
        );
      // Not the run's own folder: should the server wrongly move it, it goes back before cleanup.
      ctx.scratch.onCleanup(`folder ${locked.id} back into ${home ?? "the root"}`, async () => {
        if ((await parentOfFolder(ctx.api, dep, locked.id)) === home) return;
        const res = await bulkMove(ctx.api, dep, [locked], home);
        if (res.status !== 200 || res.body?.failed?.length) throw new Error(`moving it back answered ${res.status} ${res.text.slice(0, 160)}`);
      });
      // The root: a destination every caller can see (a folder of the run's own might be hidden from it).
      const r = await moveOk(ctx, ctx.as("readOnly"), dep, [locked], null);
      ctx.expect.equal(
        failureOf(ctx, r, locked, "a folder the readOnly token may only read").error?.status,
        403,
        "moving an item without edit access fails with status 403",
        { res: r.res, reason: "failure-status" },
      );
      ctx.expect.equal(await parentOfFolder(ctx.api, dep, locked.id), home, `the folder stays in ${home ?? "the root"}`, { reason: "stays-put" });
    },
  },
  {
    id: "bulk-move.failures.into-descendant-400",
    spec: "E12 (failed: 400 invalid move)",
    level: "MUST",
    title: "A folder moved into its own descendant is reported in failed with status 400 and stays where it is",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const outer = await createFolder(ctx, dep);
      const inner = await createFolder(ctx, dep, outer.id);
      // A server that allows it leaves a cycle that cleanup could not delete: break it first.
      ctx.scratch.onCleanup(`folder ${outer.id} back to the root`, async () => {
        const res = await bulkMove(ctx.api, dep, [outer], null);
        if (res.status !== 200 || res.body?.failed?.length) throw new Error(`moving it back answered ${res.status} ${res.text.slice(0, 160)}`);
      });
      const r = await moveOk(ctx, ctx.api, dep, [outer], inner.id);
      ctx.expect.equal(
        failureOf(ctx, r, outer, "a folder into its own child").error?.status,
        400,
        "moving a folder into its own descendant fails with status 400",
        { res: r.res, reason: "failure-status" },
      );
      const { sits, seen } = await folderSitsIn(ctx.api, dep, outer.id, inner.id);
      ctx.expect.that(!sits, "the folder does not become a child of its own child", {
        expected: `folder ${outer.id} outside ${inner.id}`,
        got: seen,
        reason: "not-own-child",
      });
    },
  },
  {
    id: "bulk-move.request.over-limit-rejected",
    spec: "Limits (up to 100 items per bulk move); E12 (Body)",
    // SHOULD: the limit is stated, what a server does past it (reject, or take the first 100) is not.
    level: "SHOULD",
    title: "A batch of 101 distinct items is rejected with a 4xx, and none of them moves",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      // The run's own workbooks, at the root, sent to a folder of its own: accepted or not, nothing else moves.
      const dest = await createFolder(ctx, dep);
      const items = await manyWorkbooks(ctx, dep, OVER_LIMIT);
      const res = await bulkMove(ctx.api, dep, items, dest.id);
      ctx.requireRoute(res, "E12", `a bulk move of ${OVER_LIMIT} items`);
      ctx.expect.clientError(res, `${OVER_LIMIT} items, over the limit of ${LIMITS.bulkMoveItems}, are rejected as a request error`);
      await expectNoneMoved(ctx, dep, items, dest.id, res);
    },
  },
  {
    id: "bulk-move.request.malformed-rejected",
    spec: "E12 (Body: items an array, folderId integer or null)",
    level: "SHOULD",
    title: "A malformed body (items not an array, folderId not an integer or null) is rejected with a 4xx, never 200",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const wb = await createWorkbook(ctx, dep);
      for (const [body, what] of [
        [{ items: wb, folderId: null }, "items given as an object, not an array, is a request error"],
        [{ items: [wb], folderId: "the-root" }, "folderId given as a string is a request error"],
      ] as const) {
        const res = await ctx.api.call("bulkMoveWorkspaceItems", { deploymentId: dep }, { body });
        ctx.requireRoute(res, "E12", what);
        ctx.expect.clientError(res, what);
      }
    },
  },
  {
    id: "bulk-move.destination.missing-folder",
    spec: "E12 (Body: folderId); Errors 2",
    level: "SHOULD",
    title: "Nothing moves into a destination folder that does not exist: the request is a 4xx, or each item fails with 404",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const wb = await createWorkbook(ctx, dep);
      const gone = await deletedItem(ctx, dep, "FOLDER");
      // A 4xx proves nothing from a server without the route: a move to the root (where wb is) shows it is there.
      await moveOk(ctx, ctx.api, dep, [wb], null);
      const res = await bulkMove(ctx.api, dep, [wb], gone.id);
      if (res.status !== 200) ctx.expect.clientError(res, "a missing destination is a request error (4xx) when not reported per item");
      else {
        const body = ctx.expect.ok(res, "BulkMoveResponse");
        ctx.expect.equal(
          failureOf(ctx, { res, moved: body.moved, failed: body.failed }, wb, "a missing destination").error?.status,
          404,
          "the item fails with status 404",
          { res: res, reason: "failure-status" },
        );
      }
      await expectWorkbookIn(ctx, dep, wb.id, null, "after a move into a missing folder");
    },
  },
  {
    id: "bulk-move.request.at-limit-accepted",
    spec: "Limits (up to 100 items per bulk move); E12 (Body: items up to 100)",
    level: "MUST",
    title: "A batch of exactly 100 distinct items, the stated limit, is accepted whole: 200, each item in moved, and the destination then lists all 100",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const dest = await createFolder(ctx, dep);
      const items = await manyWorkbooks(ctx, dep, LIMIT);
      const res = await bulkMove(ctx.api, dep, items, dest.id);
      ctx.requireRoute(res, "E12", `a bulk move of ${LIMIT} items`);
      ctx.expect.status(res, 200, `a bulk move of ${LIMIT} items, at the limit`, "at-limit-accepted");
      const body = ctx.expect.ok(res, "BulkMoveResponse");
      expectAllMoved(ctx, { res, moved: body.moved, failed: body.failed }, items);
      // One listing, not 100 reads: E8's folderId filter shows what the folder holds.
      const walk = wholeList(await walkCursor(ctx.api, workbooksPath(dep), { first: LIMIT, query: { folderId: dest.id }, endpoint: "E8" }), "workbooks");
      const listed = new Set(walk.items.map((w: any) => w?.id));
      const missing = items.filter((i) => !listed.has(i.id)).map((i) => i.id);
      ctx.expect.that(missing.length === 0, `every one of the ${LIMIT} workbooks reads back in folder ${dest.id} (E8 folderId)`, {
        expected: `${LIMIT} workbooks listed in folder ${dest.id}`,
        got: `missing: ${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ` and ${missing.length - 10} more` : ""}`,
        res: walk.pages.at(-1)?.res,
        reason: "reads-back",
      });
    },
  },
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
]);
