import type { Api } from "./api.js";
import type { Response } from "./http.js";
import { CheckFailure, NotExercised } from "./outcome.js";

export interface CursorPage<T = any> {
  res: Response;
  items: T[];
  pageInfo: { hasNextPage?: boolean; hasPreviousPage?: boolean; startCursor?: string | null; endCursor?: string | null } | null | undefined;
}

export interface CursorWalk<T = any> {
  pages: CursorPage<T>[];
  items: T[];
  /** The walk stopped at its page budget with pages left: `items` is the start of the list, not all of it. */
  partial: boolean;
}

export interface WalkLimits {
  /** The walk must end within this many pages: one that does not is a failure of the server (a list that never ends). */
  maxPages?: number;
  /** Stop quietly after this many pages, the walk marked partial (default: the run's --max-pages). */
  stopAfter?: number;
}

/**
 * Follows `first`/`after` until hasNextPage is false. A server that keeps announcing a next page
 * without moving its cursor is caught here, not looped on forever; a list longer than the run's
 * page budget (a huge tenant) is walked that far and marked partial.
 */
export async function walkCursor<T = any>(api: Api, path: string, opts: { first?: number; query?: Record<string, string | number | undefined> } & WalkLimits = {}): Promise<CursorWalk<T>> {
  const maxPages = opts.maxPages ?? Infinity;
  const stopAfter = opts.stopAfter ?? api.pageBudget;
  const pages: CursorPage<T>[] = [];
  const seenCursors = new Set<string>();
  let after: string | undefined;
  for (;;) {
    const res = await api.get(path, { ...opts.query, first: opts.first, after });
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
    if (pages.length >= stopAfter) return { pages, items: pages.flatMap((p) => p.items), partial: true };
    after = cursor;
  }
  return { pages, items: pages.flatMap((p) => p.items), partial: false };
}

/** Follows `offset`/`limit` until a short page; `list` picks the array out of the body. Limits as walkCursor's. */
export async function walkOffset<T = any>(api: Api, path: string, limit: number, list: (body: any) => T[] | undefined, limits: WalkLimits = {}): Promise<{ pages: Response[]; items: T[]; partial: boolean }> {
  const maxPages = limits.maxPages ?? Infinity;
  const stopAfter = limits.stopAfter ?? api.pageBudget;
  const pages: Response[] = [];
  const items: T[] = [];
  for (let offset = 0; pages.length < maxPages; offset += limit) {
    if (pages.length >= stopAfter) return { pages, items, partial: true };
    const res = await api.get(path, { offset, limit });
    pages.push(res);
    const page = res.status === 200 && res.isJson ? list(res.body) : undefined;
    if (!Array.isArray(page)) throw new CheckFailure(`offset page at ${offset} was not a 200 JSON list`, { got: `${res.status} ${res.text.slice(0, 160)}`, exchange: res.exchange });
    items.push(...page);
    if (page.length < limit) return { pages, items, partial: false };
  }
  throw new CheckFailure(`the offset walk did not end within ${maxPages} pages`);
}

/**
 * The walk, when it covered the whole list. A check whose rule is about the whole list (every
 * item once, the count) is not exercised on a list longer than the run's page budget: it says so
 * (a partial walk), and a failure is never guessed from a part.
 */
export function wholeList<W extends { pages: unknown[]; partial: boolean }>(walk: W, what: string): W {
  if (walk.partial) throw new NotExercised(`partial walk: the ${what} list runs past the page budget of ${walk.pages.length} pages (--max-pages); the rule is about the whole list`);
  return walk;
}
