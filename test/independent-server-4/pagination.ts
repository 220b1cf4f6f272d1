import { HttpError } from "./util.js";

/** Cursor pages: default size and hard cap (larger `first` values are clamped). */
export const CURSOR_DEFAULT = 10;
export const CURSOR_MAX = 25;
/** Offset pages: default size 20 (spec); `limit` above 100 is refused by schema (422). */
export const OFFSET_DEFAULT = 20;
export const OFFSET_MAX = 100;
export const CURSOR_TTL_MS = 15 * 60 * 1000;

interface CursorBody {
  s: string;
  p: number;
  x: number;
}

export function encodeCursor(scope: string, position: number): string {
  const body: CursorBody = { s: scope, p: position, x: Date.now() + CURSOR_TTL_MS };
  return Buffer.from(JSON.stringify(body)).toString("base64url");
}

export function decodeCursor(scope: string, cursor: string): number {
  let body: CursorBody;
  try {
    body = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as CursorBody;
  } catch {
    throw new HttpError(400, "Malformed cursor", "invalid_cursor");
  }
  if (typeof body?.p !== "number" || typeof body.s !== "string" || typeof body.x !== "number") {
    throw new HttpError(400, "Malformed cursor", "invalid_cursor");
  }
  if (body.s !== scope) throw new HttpError(400, "Cursor belongs to a different list", "invalid_cursor");
  if (body.x < Date.now()) throw new HttpError(400, "Cursor expired; restart from the first page", "cursor_expired");
  return body.p;
}

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface ListQuery {
  offset?: number;
  limit?: number;
  first?: number;
  after?: string;
}

export interface Page<T> {
  items: T[];
  pageInfo: PageInfo;
  pagination: { offset: number; limit: number; total: number } | null;
  total: number;
  mode: "cursor" | "offset";
}

/**
 * Pages a full list. Cursor mode when `first` or `after` is present, otherwise
 * offset mode (or cursor defaults when `cursorOnly`). Mixing both styles is refused.
 */
export function paginate<T>(all: T[], q: ListQuery, scope: string, cursorOnly = false): Page<T> {
  const cursorMode = q.first !== undefined || q.after !== undefined;
  const offsetMode = q.offset !== undefined || q.limit !== undefined;
  if (cursorMode && offsetMode) {
    throw new HttpError(400, "Use either offset/limit or first/after, not both", "mixed_pagination");
  }
  const total = all.length;
  let start: number;
  let size: number;
  let mode: "cursor" | "offset";
  if (cursorMode || cursorOnly) {
    mode = "cursor";
    size = Math.min(q.first ?? CURSOR_DEFAULT, CURSOR_MAX);
    start = q.after !== undefined ? decodeCursor(scope, q.after) + 1 : 0;
  } else {
    mode = "offset";
    size = q.limit ?? OFFSET_DEFAULT;
    start = q.offset ?? 0;
  }
  const items = all.slice(start, start + size);
  const end = start + items.length;
  return {
    items,
    total,
    mode,
    pageInfo: {
      hasNextPage: end < total,
      hasPreviousPage: start > 0,
      startCursor: items.length ? encodeCursor(scope, start) : null,
      endCursor: items.length ? encodeCursor(scope, end - 1) : null,
    },
    pagination: mode === "offset" ? { offset: start, limit: size, total } : null,
  };
}

/** Standard cursor-list envelope: items + pageInfo, plus deprecated data/count/pagination. */
export function cursorEnvelope<T>(page: Page<T>): Record<string, unknown> {
  return {
    items: page.items,
    pageInfo: page.pageInfo,
    data: page.items,
    count: page.total,
    pagination: page.pagination,
  };
}
