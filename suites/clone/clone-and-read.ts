import type { Api } from "../../core/transport/api.js";
import type { CheckContext } from "../../core/check/context.js";
import { duplicate, unlessAtWorkbookLimit, ownWorkbook, readWorkbook } from "../lib/workbook-writes.js";

/** The clone every family of E10 starts from: its rule checks read the clone back through this one call. */

/**
 * Clones `id` (E10) and reads the clone back (E9): the answer, and the record as stored. A clone
 * that does not answer blocks the check (E10's owner, clone.answer.is-the-stored-clone, fails).
 */
export async function cloneAndRead(ctx: CheckContext, dep: string, id: number, api: Api = ctx.api) {
  const res = await duplicate(ctx.scratch, api, dep, id);
  unlessAtWorkbookLimit(res, `cloning workbook ${id}`);
  ctx.require(res, "E10", `cloning workbook ${id}`, (r) => r.isJson && Number.isSafeInteger(r.body?.id));
  const answer = ctx.expect.ok(res, "Workbook");
  const stored = await readWorkbook(ctx, api, dep, answer.id);
  return { answer, res, clone: stored.workbook, cloneRes: stored.res };
}

/** A clone of a workbook of the check's own: shows that E10 answers before a check relies on a refusal of it. */
export async function cloneOwn(ctx: CheckContext, dep: string): Promise<void> {
  await cloneAndRead(ctx, dep, (await ownWorkbook(ctx, ctx.api, dep)).workbook.id);
}
