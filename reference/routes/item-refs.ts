import { HttpError } from "../http-error.js";
import type { ItemType } from "../store.js";

const TYPES: ItemType[] = ["WORKBOOK", "REPORT", "FOLDER"];
export const MAX_BATCH = 100;

/** `items` of a bulk request: 0..100 {type, id}, malformed is a 400, duplicates collapsed in order. */
export function itemRefs(body: any): { type: ItemType; id: number }[] {
  if (!body || typeof body !== "object" || !Array.isArray(body.items)) throw new HttpError(400, "items must be an array");
  if (body.items.length > MAX_BATCH) throw new HttpError(400, `at most ${MAX_BATCH} items per request`);
  const seen = new Set<string>();
  const out: { type: ItemType; id: number }[] = [];
  for (const it of body.items) {
    if (!it || typeof it !== "object" || !TYPES.includes(it.type) || !Number.isSafeInteger(it.id))
      throw new HttpError(400, "each item is {type: WORKBOOK|REPORT|FOLDER, id: integer}");
    const key = `${it.type}:${it.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ type: it.type, id: it.id });
  }
  return out;
}
