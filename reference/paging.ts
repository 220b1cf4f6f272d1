import type { Behaviour } from "./behaviour.js";
import { HttpError } from "./http.js";
import { LIMITS } from "../core/api/operations.js";

/** Reads an integer query parameter with a lower bound; a bad value is a 400, never a crash. */
export function intParam(b: Behaviour, query: URLSearchParams, name: string, min: number): number | undefined {
  const raw = query.get(name);
  // Absent is absent; sent empty (`first=`) is a value that is not an integer, refused like `first=x`.
  if (raw === null) return undefined;
  if (!/^-?\d+$/.test(raw)) throw new HttpError(400, `${name} must be an integer`);
  const n = Number(raw);
  if (b.belowMinimum(n, min)) throw new HttpError(400, `${name} must be at least ${min}`);
  return n;
}

export function encodeCursor(position: number): string {
  return Buffer.from(JSON.stringify({ p: position })).toString("base64url");
}

function decodeCursor(cursor: string): number {
  try {
    const p = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")).p;
    if (Number.isInteger(p) && p >= 0) return p;
  } catch {
    /* falls through to the 400 */
  }
  throw new HttpError(400, "after is not a cursor this server issued");
}

export interface CursorResult<T> {
  items: T[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** One page of a cursor list (`first`, `after`); without `first`, `defaultFirst` or everything. */
export function cursorPage<T>(b: Behaviour, list: T[], query: URLSearchParams, defaultFirst?: number): CursorResult<T> {
  const first = intParam(b, query, "first", 1) ?? defaultFirst ?? Math.max(list.length, 1);
  const after = query.get("after");
  const start = after ? decodeCursor(after) : 0;
  const items = b.pageSlice(list, start, first);
  const end = start + items.length;
  return {
    items,
    pageInfo: {
      hasNextPage: end < list.length,
      hasPreviousPage: start > 0,
      startCursor: items.length ? encodeCursor(start) : null,
      endCursor: items.length ? encodeCursor(end) : null,
    },
  };
}

/** One page of an offset list (`offset` >= 0, `limit` >= 1; Limits: offset 0 and 20 items when omitted). */
export function offsetPage<T>(
  b: Behaviour,
  list: T[],
  query: URLSearchParams,
  limitMin = 1,
): { items: T[]; pagination: { offset: number; limit: number; total: number } } {
  const offset = intParam(b, query, "offset", 0) ?? 0;
  const limit = intParam(b, query, "limit", limitMin) ?? LIMITS.defaultLimit;
  return { items: b.pageSlice(list, offset, limit), pagination: { offset, limit, total: list.length } };
}
