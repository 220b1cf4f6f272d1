import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { ItemRef } from "../../core/ledger/scratch.js";
import type { Response } from "../../core/transport/http.js";
import { createFolder, createWorkbook, workbookNoFolderHas } from "../lib/scratch-items.js";
import { bulkMove } from "../lib/workbook-calls.js";
import { WRITES } from "../lib/needs.js";
import { expectWorkbookIn, failureOf, moveOk } from "./move-and-read.js";

/**
 * Destinations that are no folder of the deployment (core/api/input-domain.ts, bulkMoveWorkspaceItems
 * /folderId: other-kind, other-deployment). E12 says what a failed item's status is, but not what a
 * destination of another kind or another deployment is: these judge what the answer says against
 * what reads back.
 */

/** A refusal of the whole request (4xx) or of the item (in failed, with a 4xx status): the item stays where it was (the root). */
export async function expectRefused(ctx: CheckContext, dep: string, wb: ItemRef, res: Response, what: string): Promise<void> {
  judgeRefusal(ctx, wb, res, what);
  await expectWorkbookIn(ctx, dep, wb.id, null, `after ${what}`);
}

/** The refusal alone: the whole request a 4xx, or the item in failed with a 4xx status. */
export function judgeRefusal(ctx: CheckContext, wb: ItemRef, res: Response, what: string): void {
  if (res.status !== 200) ctx.expect.clientError(res, `${what}: a request error (4xx) when not reported per item`);
  else {
    const body = ctx.expect.ok(res, "BulkMoveResponse");
    const status = failureOf(ctx, { res, moved: body.moved, failed: body.failed }, wb, what).error?.status;
    ctx.expect.that(status >= 400 && status < 500, `${what}: the item fails with a 4xx status`, {
      expected: "400, 403 or 404",
      got: status,
      res,
      reason: "failure-status",
    });
  }
}

export const bulkMoveDestinationChecks = group("bulk-move", [
  {
    id: "bulk-move.destination.other-kind",
    spec: "E12 (Body: folderId: destination); Errors 2",
    level: "SHOULD",
    title:
      "Nothing moves into a destination id that names a workbook, not a folder: the request is a 4xx, or the item fails with a 4xx, and stays where it was",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const wb = await createWorkbook(ctx, dep);
      const other = await workbookNoFolderHas(ctx, dep);
      // A 4xx proves nothing from a server without the route: a move to the root (where wb is) shows it is there.
      await moveOk(ctx, ctx.api, dep, [wb], null);
      const what = `a move into workbook ${other.id} as if a folder`;
      await expectRefused(ctx, dep, wb, await bulkMove(ctx.api, dep, [wb], other.id), what);
    },
  },
  {
    id: "bulk-move.destination.other-deployment",
    spec: "E12 (Body: folderId: destination); States and transitions (bulk move); Errors 2",
    level: "SHOULD",
    title:
      "A destination folder of another deployment (not shown) is either taken, the item in moved and reading back there, or refused (a 4xx, or the item failed with a 4xx) with the item where it was",
    needs: [...WRITES, "fixture:namedOtherDeployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const theirs = await createFolder(ctx, ctx.fixture("namedOtherDeployment").id);
      const wb = await createWorkbook(ctx, dep);
      await moveOk(ctx, ctx.api, dep, [wb], null);
      const res = await bulkMove(ctx.api, dep, [wb], theirs.id);
      const body = res.status === 200 ? ctx.expect.ok(res, "BulkMoveResponse") : undefined;
      const taken = body?.moved?.some((m: ItemRef) => m?.type === wb.type && m?.id === wb.id);
      if (!taken) {
        await expectRefused(ctx, dep, wb, res, `a move into folder ${theirs.id} of another deployment`);
        return;
      }
      ctx.scratch.onCleanup(`workbook ${wb.id} back at the root`, async () => void (await bulkMove(ctx.api, dep, [wb], null)));
      await expectWorkbookIn(ctx, dep, wb.id, theirs.id, `after a move into folder ${theirs.id} of another deployment, answered as moved`);
    },
  },
]);
