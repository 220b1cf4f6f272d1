import type { Api } from "./api.js";
import type { Response } from "./http.js";
import type { SpecEndpoint } from "./endpoints.js";
import { CheckFailure } from "./outcome.js";
import { requireAnswer } from "./preconditions.js";

export interface CursorPage<T = any> {
  res: Response;
  items: T[];
  pageInfo: { hasNextPage?: boolean; hasPreviousPage?: boolean; startCursor?: string | null; endCursor?: string | null } | null | undefined;
}

export interface CursorWalk<T = any> {
  pages: CursorPage<T>[];
  items: T[];
}

/**
 * Follows `first`/`after` until hasNextPage is false. A server that keeps announcing a next page
 * without moving its cursor is caught here, not looped on forever. With `endpoint`, the walk is a
 * precondition of the check: a first page that does not answer blocks it (core/preconditions.ts).
 */
export async function walkCursor<T = any>(api: Api, path: string, opts: { first?: number; query?: Record<string, string | number | undefined>; maxPages?: number; endpoint?: SpecEndpoint } = {}): Promise<CursorWalk<T>> {
  const maxPages = opts.maxPages ?? 200;
  const pages: CursorPage<T>[] = [];
  const seenCursors = new Set<string>();
  let after: string | undefined;
  for (;;) {
    const res = await api.get(path, { ...opts.query, first: opts.first, after });
    if (opts.endpoint && !pages.length) requireAnswer(res, opts.endpoint, "the first page of the list");
    if (res.status !== 200 || !res.isJson) throw new CheckFailure(`page ${pages.length + 1} of the cursor walk was not a 200 JSON answer`, { expected: "200 with a JSON list", got: `${res.status} ${res.text.slice(0, 160)}`, exchange: res.exchange });
    const items: T[] = Array.isArray(res.body?.items) ? res.body.items : [];
    const pageInfo = res.body?.pageInfo;
    pages.push({ res, items, pageInfo });
    if (!pageInfo?.hasNextPage) break;
    const cursor = pageInfo.endCursor;
    if (typeof cursor !== "string" || cursor === "") throw new CheckFailure("hasNextPage is true but endCursor gives no cursor to continue from", { expected: "a string endCursor", got: cursor, exchange: res.exchange });
    if (seenCursors.has(cursor)) throw new CheckFailure("the cursor walk returned an endCursor it had returned before: it would never end", { expected: "a new cursor on each page", got: cursor, exchange: res.exchange });
    seenCursors.add(cursor);
    if (pages.length >= maxPages) throw new CheckFailure(`the cursor walk did not end within ${maxPages} pages`, { exchange: res.exchange });
    after = cursor;
  }
  return { pages, items: pages.flatMap((p) => p.items) };
}

/** Follows `offset`/`limit` until a short page; `list` picks the array out of the body. */
export async function walkOffset<T = any>(api: Api, path: string, limit: number, list: (body: any) => T[] | undefined, maxPages = 200): Promise<{ pages: Response[]; items: T[] }> {
  const pages: Response[] = [];
  const items: T[] = [];
  for (let offset = 0; pages.length < maxPages; offset += limit) {
    const res = await api.get(path, { offset, limit });
    pages.push(res);
    const page = res.status === 200 && res.isJson ? list(res.body) : undefined;
    if (!Array.isArray(page)) throw new CheckFailure(`offset page at ${offset} was not a 200 JSON list`, { got: `${res.status} ${res.text.slice(0, 160)}`, exchange: res.exchange });
    items.push(...page);
    if (page.length < limit) return { pages, items };
  }
  throw new CheckFailure(`the offset walk did not end within ${maxPages} pages`);
}
