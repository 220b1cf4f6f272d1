import type { Api } from "../../core/transport/api.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { listed } from "../../core/served/served-operations.js";
import type { ItemRef } from "../../core/ledger/scratch.js";
import { folderSitsIn } from "../lib/scratch-items.js";
import { bulkMove, itemKey as key } from "../lib/workbook-calls.js";

/** Sending a move and reading where items went: every family of E12 judges a batch through these. */

interface Moved {
  res: Response;
  moved: any[];
  failed: any[];
}

/** Sends a bulk move; a well-formed one must answer 200 (else the check is blocked by E12's owner) with the BulkMoveResponse shape. */
export async function moveOk(ctx: CheckContext, api: Api, dep: string, items: ItemRef[], folderId: number | null): Promise<Moved> {
  const res = await bulkMove(api, dep, items, folderId);
  ctx.require(res, "E12", `moving ${items.length} item(s) into ${folderId ?? "the root"}`);
  const body = ctx.expect.ok(res, "BulkMoveResponse");
  return { res, moved: body.moved, failed: body.failed };
}

/** The failure reported for an item; the check fails when the item is not in failed. */
export function failureOf(ctx: CheckContext, r: Moved, item: ItemRef, why: string): any {
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

export function expectAllMoved(ctx: CheckContext, r: Moved, items: ItemRef[]): void {
  ctx.expect.equal(r.failed.map(key), [], "the run's own items move without failures", { res: r.res, reason: "own-items-move" });
  const missing = items.map(key).filter((k) => !r.moved.some((x) => key(x) === k));
  ctx.expect.that(missing.length === 0, "every item sent is listed in moved", {
    expected: items.map(key),
    got: r.moved.map(key),
    res: r.res,
    reason: "all-moved",
  });
}

/** A workbook at the root of `dep` (E8's first page), the run's own or not: one that a move to the root leaves where it is. */
export async function rootWorkbookOf({ api }: CheckContext, dep: string): Promise<ItemRef> {
  const res = await api.call("listWorkbooks", { deploymentId: dep }, { query: { first: 100 } });
  // E8 may list folders and reports beside workbooks (Workbook.type): a workbook, or an item that names no type.
  const atRoot = (listed(res.body) ?? []).find((w: any) => w?.folderId === null && Number.isSafeInteger(w?.id) && (w?.type ?? "WORKBOOK") === "WORKBOOK");
  if (res.status !== 200 || !atRoot) throw new NotExercised(`deployment ${dep} lists no workbook at its root (GET workbooks answered ${res.status})`);
  return { type: "WORKBOOK", id: atRoot.id };
}

/** The workbook reads back in `folderId` (null: the root), as E9's folderId shows. */
export async function expectWorkbookIn({ api, expect }: CheckContext, dep: string, id: number, folderId: number | null, what: string): Promise<void> {
  const res = await api.call("getWorkbook", { deploymentId: dep, workbookId: id });
  const body = expect.ok(res);
  if (!("folderId" in body)) throw new NotVerifiable(`E9 shows no folderId (an optional field) for workbook ${id}: its placement cannot be read back`);
  expect.equal(body.folderId, folderId, `${what}: workbook ${id} reads back (E9 folderId) in ${folderId ?? "the root"}`, { res, reason: "reads-back" });
}

export async function expectFolderIn(ctx: CheckContext, dep: string, id: number, parentId: number | null, what: string): Promise<void> {
  const { sits, seen } = await folderSitsIn(ctx.api, dep, id, parentId);
  ctx.expect.that(sits, `${what}: folder ${id} sits in ${parentId ?? "the root"}`, {
    expected: `in ${parentId ?? "the root"}`,
    got: seen,
    reason: "folder-placement",
  });
}
