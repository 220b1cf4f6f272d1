import type { Req } from "../../http.js";
import { itemRefs } from "../../routes/item-refs.js";
import type { Store } from "../../store.js";

/*
 * Faults that only generated inputs find: each hides behind inputs the example checks do not
 * send (a tab around a slug, a nested object of three keys, a second legacy widget, a failure in
 * the middle of a batch, a folder listed after a move).
 */

export const key = (i: { type?: unknown; id?: unknown }) => `${i?.type}:${i?.id}`;

/** The distinct items of a bulk move, in the order sent, and the status each failed with (none: moved). */
export function batchOutcome(req: Req, body: any): { type: string; id: number; status?: number }[] {
  const failed = new Map<string, number>((body.failed as any[]).map((f) => [key(f), f.error?.status]));
  return itemRefs(req.body).map((ref) => ({ ...ref, status: failed.get(key(ref)) }));
}

/** Where the last upsert or clone left each workbook, per server: the index E8 wrongly filters by. */
export const folderIndex = new WeakMap<Store, Map<number, number | null>>();
