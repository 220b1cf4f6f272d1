import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { ItemRef } from "../../core/ledger/scratch.js";
import type { Response } from "../../core/transport/http.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { editableFolder } from "../lib/editable-folder.js";
import { WRITES } from "../lib/needs.js";
import { readOnlyFolder } from "../lib/read-only-folder.js";
import { createFolder, parentOfFolder } from "../lib/scratch-items.js";
import { bulkMove, itemKey as key } from "../lib/workbook-calls.js";
import { ownWorkbook } from "../lib/workbook-writes.js";
import { judgeRefusal } from "./destinations.js";
import { expectWorkbookIn, failureOf, moveOk } from "./move-and-read.js";

/**
 * The readOnly key's view of access in a bulk move (E12 Rules, Authentication 4): the folder it
 * may only read (fixtures.readOnlyFolderId, else one found), and workbooks and folders of its own.
 */

/** The folder the readOnly key may only read, with where it sits; should a faulty server move it, it goes back before cleanup. */
export async function lockedFolder(ctx: CheckContext, dep: string): Promise<{ locked: ItemRef; home: number | null }> {
  const locked: ItemRef = { type: "FOLDER", id: (await readOnlyFolder(ctx, dep)).id };
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
  return { locked, home };
}

/** A workbook the readOnly key makes at the root: its own, so one it may move (E11 rule 4: the creator edits what it made). */
async function ownAtRoot(ctx: CheckContext, dep: string): Promise<ItemRef> {
  const { workbook } = await ownWorkbook(ctx, ctx.as("readOnly"), dep);
  return { type: "WORKBOOK", id: workbook.id };
}

export const bulkMoveAccessChecks = group("bulk-move", [
  {
    id: "bulk-move.access.mixed-batch-per-item",
    spec: "E12 Rules (access checked per item; earlier moves not rolled back); Authentication 4",
    level: "MUST",
    title:
      "A batch mixing the caller's own workbooks with a folder it can only read, that folder in the middle and then first, moves the workbooks into the destination and reports only that folder in failed with 403, left where it was",
    needs: [...WRITES, "token:readOnly"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const readOnly = ctx.as("readOnly");
      const { locked, home } = await lockedFolder(ctx, dep);
      // Two destinations the readOnly key may edit: a folder of its own, and one of its own inside it.
      const outer = (await editableFolder(ctx, dep)).id;
      const inner = (await createFolder({ ...ctx, api: readOnly }, dep, outer)).id;
      const [a, b] = [await ownAtRoot(ctx, dep), await ownAtRoot(ctx, dep)];
      // The refused item in the middle (a move before it, one after), then first (every move after it).
      for (const [items, dest, where] of [
        [[a, locked, b], outer, "in the middle"],
        [[locked, a, b], inner, "first"],
      ] as const) {
        const r = await moveOk(ctx, readOnly, dep, [...items], dest);
        const refused = r.failed.filter((f) => key(f) !== key(locked)).map(key);
        const unmoved = [a, b].map(key).filter((k) => !r.moved.some((m) => key(m) === k));
        ctx.expect.that(
          refused.length === 0 && unmoved.length === 0,
          `with the read-only folder ${where}, both own workbooks are in moved and none in failed`,
          {
            expected: `moved holds ${key(a)} and ${key(b)}; failed holds ${key(locked)} alone`,
            got: { moved: r.moved.map(key), failed: r.failed.map(key) },
            res: r.res,
            reason: "own-items-move",
          },
        );
        for (const wb of [a, b]) await expectWorkbookIn(ctx, dep, wb.id, dest, `after the batch with the read-only folder ${where}`);
        ctx.expect.equal(failureOf(ctx, r, locked, `the read-only folder ${where}`).error?.status, 403, "the folder the caller may only read fails with 403", {
          res: r.res,
          reason: "failure-status",
        });
        ctx.expect.equal(await parentOfFolder(ctx.api, dep, locked.id), home, `the read-only folder stays in ${home ?? "the root"}`, { reason: "stays-put" });
      }
    },
  },
  {
    id: "bulk-move.access.read-only-destination",
    spec: "E12 (per item, the single-item rules); Authentication 4 (with folderId, edit access to the destination folder); E11 rule 4",
    // SHOULD: the single-item move's own rules are not stated; E11 rule 4 states them for a move by upsert (edit access to the destination).
    // Where it is refused, what reads back after is bulk-move.access.refused-destination-stays's (MUST).
    level: "SHOULD",
    title: "The caller's own workbook sent into a folder it may only read does not move: the item fails with a 4xx (or the request is a 4xx)",
    needs: [...WRITES, "token:readOnly"],
    async run(ctx) {
      const { wb, res, what } = await intoReadOnlyFolder(ctx);
      judgeRefusal(ctx, wb, res, what);
    },
  },
  {
    id: "bulk-move.access.refused-destination-stays",
    spec: "E12 Rules (access is checked per item: permitted items are applied and the rest reported); E12 (failed)",
    level: "MUST",
    title:
      "The caller's own workbook that a move into a folder it can only read reports in failed (or a 4xx refuses) reads back where it was: a refusal is not applied",
    needs: [...WRITES, "token:readOnly"],
    async run(ctx) {
      const { dep, wb, res, what } = await intoReadOnlyFolder(ctx);
      const body = res.status === 200 && res.isJson ? (res.body as { moved?: ItemRef[]; failed?: unknown[] }) : undefined;
      const refused = res.status >= 400 && res.status < 500 ? true : body?.failed?.some((f) => key(f as ItemRef) === key(wb)) === true;
      if (!refused) throw new NotExercised(`${what} was not refused (answered ${res.status}): whether a refusal is applied is not shown here`);
      await expectWorkbookIn(ctx, dep, wb.id, null, `after ${what}, refused`);
    },
  },
]);

/**
 * The readOnly key's own workbook at the root, sent by that key into the folder it may only read;
 * not exercised where the key may not move even to the root (a refusal would say nothing of the folder).
 */
async function intoReadOnlyFolder(ctx: CheckContext): Promise<{ dep: string; wb: ItemRef; res: Response; what: string }> {
  const dep = ctx.fixture("deployment").id;
  const readOnly = ctx.as("readOnly");
  const locked = (await readOnlyFolder(ctx, dep)).id;
  const wb = await ownAtRoot(ctx, dep);
  // A 4xx proves nothing from a server without the route, nor from one refusing this key every move: a move to the root (where wb is) shows both.
  const home = await moveOk(ctx, readOnly, dep, [wb], null);
  if (!home.moved.some((m) => key(m) === key(wb)))
    throw new NotExercised(
      `the readOnly key may not move its own workbook ${wb.id} even to the root: a refusal into the read-only folder would say nothing of that folder`,
    );
  // A server that wrongly takes it moves the run's workbook: it goes back to the root, where cleanup finds it anyway.
  const res = await bulkMove(readOnly, dep, [wb], locked);
  return { dep, wb, res, what: `the readOnly key's own workbook sent into folder ${locked}, which it may only read` };
}
