// Pagination: offset style and cursor style. Caps REFUSE (400) rather than clamp.
import { bad, qInt } from "./http.js";

export const MAX_PAGE = 50;
export const DEFAULT_LIMIT = 20;
export const DEFAULT_FIRST = 5;

export interface OffsetPage<T> {
  rows: T[];
  pagination: { offset: number; limit: number; total: number };
}

export function offsetPage<T>(all: T[], q: URLSearchParams, limitMin = 1): OffsetPage<T> {
  const offset = qInt(q, "offset", 0) ?? 0;
  const limit = qInt(q, "limit", limitMin, MAX_PAGE) ?? DEFAULT_LIMIT;
  return { rows: all.slice(offset, offset + limit), pagination: { offset, limit, total: all.length } };
}

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor?: string;
  endCursor?: string;
}
export interface CursorPage<T> {
  rows: T[];
  pageInfo: PageInfo;
  start: number;
}

function enc(list: string, index: number): string {
  return Buffer.from(JSON.stringify({ l: list, i: index })).toString("base64url");
}

function dec(list: string, cursor: string): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
  } catch {
    throw bad("query parameter after is not a valid cursor");
  }
  if (typeof parsed !== "object" || parsed === null) throw bad("query parameter after is not a valid cursor");
  const o = parsed as { l?: unknown; i?: unknown };
  if (o.l !== list || typeof o.i !== "number" || !Number.isInteger(o.i) || o.i < 0) throw bad("query parameter after is not a cursor of this list");
  return o.i;
}

/**
 * Cursor page. `whole` = true returns everything after the cursor when `first` is absent
 * (environments list); otherwise the default page size is DEFAULT_FIRST.
 */
export function cursorPage<T>(all: T[], q: URLSearchParams, list: string, whole = false): CursorPage<T> {
  const first = qInt(q, "first", 1, MAX_PAGE);
  const after = q.get("after");
  const start = after !== null && after !== "" ? dec(list, after) + 1 : 0;
  const size = first ?? (whole ? Number.MAX_SAFE_INTEGER : DEFAULT_FIRST);
  const rows = all.slice(start, start + size);
  const pageInfo: PageInfo = { hasNextPage: start + rows.length < all.length, hasPreviousPage: start > 0 };
  if (rows.length > 0) {
    pageInfo.startCursor = enc(list, start);
    pageInfo.endCursor = enc(list, start + rows.length - 1);
  }
  return { rows, pageInfo, start };
}

/** Full list answered in one page (pageInfo with no further pages). */
export function wholePage<T>(all: T[], list: string): CursorPage<T> {
  const pageInfo: PageInfo = { hasNextPage: false, hasPreviousPage: false };
  if (all.length > 0) {
    pageInfo.startCursor = enc(list, 0);
    pageInfo.endCursor = enc(list, all.length - 1);
  }
  return { rows: all, pageInfo, start: 0 };
}

/** Standard cursor list body: items, pageInfo and the deprecated data/count. */
export function listBody<T>(all: T[], q: URLSearchParams, list: string): Record<string, unknown> {
  const p = cursorPage(all, q, list);
  return { items: p.rows, pageInfo: p.pageInfo, data: p.rows, count: all.length };
}

/** Rejects mixing offset/limit with first/after on lists that do not support it. */
export function noOffset(q: URLSearchParams): void {
  if (q.has("offset") || q.has("limit")) throw bad("this list is cursor-paginated: use first and after, not offset and limit");
}
