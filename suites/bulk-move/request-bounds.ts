import { group } from "../../core/check/check.js";
import { offSchema } from "../../core/transport/client.js";
import type { CheckContext } from "../../core/check/context.js";
import { walkCursor, wholeList } from "../../core/transport/pagination.js";
import type { ItemRef } from "../../core/ledger/scratch.js";
import { LIMITS } from "../../core/api/operations.js";
import { createFolder, createWorkbook, deletedItem } from "../lib/scratch-items.js";
import { bulkMove, workbooksPath } from "../lib/workbook-calls.js";
import { putBySlug, unlessAtWorkbookLimit } from "../lib/workbook-writes.js";
import { expectNoneMoved } from "./refused-move.js";
import { expectAllMoved, expectWorkbookIn, failureOf, moveOk } from "./move-and-read.js";
import { WRITES } from "../lib/needs.js";

/** Limits: up to 100 items per bulk move; one past it. */
const LIMIT = LIMITS.bulkMoveItems;
const OVER_LIMIT = LIMIT + 1;
const CREATE_IN_PARALLEL = 10;

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

/** What E12 takes as a request: the 100-item limit (one past it, and exactly it), a malformed body, a destination that does not exist. */
export const bulkMoveRequestChecks = group("bulk-move", [
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
        const res = await ctx.api.call("bulkMoveWorkspaceItems", { deploymentId: dep }, { body: offSchema(body) });
        ctx.requireRoute(res, "E12", what);
        ctx.expect.clientError(res, what);
      }
    },
  },
  {
    id: "bulk-move.destination.missing-folder",
    spec: "E12 (Body: folderId); Errors 2",
    level: "SHOULD",
    title:
      "Nothing moves into a destination folder that does not exist: the request is a 4xx, or each item fails with 404 (missing) or 400 (an invalid move), the statuses E12 names for a failed item",
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
        // E12 names 404 for a missing item and 400 for an invalid move: which a missing destination is, it does not say.
        const status = failureOf(ctx, { res, moved: body.moved, failed: body.failed }, wb, "a missing destination").error?.status;
        ctx.expect.that(status === 404 || status === 400, "the item fails with status 404 or 400", {
          expected: "404 or 400",
          got: status,
          res,
          reason: "failure-status",
        });
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
]);
