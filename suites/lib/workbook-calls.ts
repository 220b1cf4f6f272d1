import type { Workbook } from "../../core/api/schema-types.js";
import type { Api } from "../../core/transport/api.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import type { ItemRef } from "../../core/ledger/scratch.js";
import { createWorkbook } from "./scratch-items.js";
import { workbookPath } from "./workbook-writes.js";
import { pathTo } from "../../core/transport/client.js";

/** What the workspace properties and the model test share beyond E10/E11 writes (workbook-writes.ts). */

/** E8: the workbooks list of a deployment. */
export const workbooksPath = (dep: string) => pathTo("listWorkbooks", { deploymentId: dep });

/** E12; folderId null is the workspace root. */
export function bulkMove(api: Api, dep: string, items: ItemRef[], folderId: number | null): Promise<Response> {
  return api.call("bulkMoveWorkspaceItems", { deploymentId: dep }, { body: { items, folderId } });
}

export const itemKey = (i: { type?: unknown; id?: unknown }) => `${i?.type}:${i?.id}`;

/** A 200 JSON workbook with an integer id, or the check fails saying which call did not give one. */
export function expectWorkbook({ expect }: CheckContext, res: Response, call: string): Workbook {
  expect.status(res, 200, call);
  const body = expect.json(res);
  expect.that(Number.isSafeInteger(body?.id), `${call}: the answer is a workbook with an integer id`, {
    expected: "a Workbook",
    got: body,
    res,
    reason: "no-id",
  });
  return body;
}

/** Placements are read back through E9's folderId (optional in the schema): on a server that does not show it they are not verifiable. */
export async function requirePlacementShown(ctx: CheckContext, dep: string): Promise<void> {
  const wb = await createWorkbook(ctx, dep);
  const shown = ctx.require(await ctx.api.get(workbookPath(dep, wb.id)), "E9", `reading its own workbook ${wb.id}`);
  if (!("folderId" in (shown ?? {}))) throw new NotVerifiable(`E9 shows no folderId (an optional field) for workbook ${wb.id}: placements cannot be read back`);
}
