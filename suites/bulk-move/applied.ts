import { group } from "../../core/check/check.js";
import { createFolder, createWorkbook, deletedItem } from "../lib/scratch-items.js";
import { itemKey as key } from "../lib/workbook-calls.js";
import { expectAnswerIsStored } from "../lib/workbook-writes.js";
import { expectAllMoved, expectFolderIn, expectWorkbookIn, failureOf, moveOk } from "./move-and-read.js";
import { WRITES } from "../lib/needs.js";

/** E12's answer and what a batch does: the response's shape, duplicates collapsed, each move applied and read back, no rollback, the given order. */
export const bulkMoveAppliedChecks = group("bulk-move", [
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
]);
