import type { Response } from "./http.js";
import type { SpecEndpoint } from "../api/endpoints.js";
import { CheckFailure, NotExercised } from "../model/outcome.js";
import { requireAnswer } from "../api/preconditions.js";

export interface CursorPage<T = unknown> {
  res: Response;
  items: T[];
  pageInfo: { hasNextPage?: boolean; hasPreviousPage?: boolean; startCursor?: string | null; endCursor?: string | null } | null | undefined;
}

export interface CursorWalk<T = unknown> {
  pages: CursorPage<T>[];
  items: T[];
  /** The `first` the server took: the one asked for, or a smaller one after it refused that. */
  first?: number;
  /** The walk stopped at its page budget with pages left: `items` is the start of the list, not all of it. */
  partial: boolean;
}

export interface WalkLimits {
  /** The walk must end within this many pages: one that does not is a failure of the server (a list that never ends). */
  maxPages?: number;
  /**
   * The list holds this many items (a whole walk counted them): the walk must end within the pages
   * they fill at the page size the server serves (its smallest page before the last, after any
   * refusal or clamp), plus two. A budget from the size asked for would fail a server that clamps.
   */
  listLength?: number;
  /** Stop quietly after this many pages, the walk marked partial (default: the run's --max-pages). */
  stopAfter?: number;
}

interface CursorWalkOptions<T> extends WalkLimits {
  first?: number;
  query?: Query;
  endpoint?: SpecEndpoint;
  /** Stop, the walk marked partial, at the first page whose items show what is looked for. */
  until?: (items: T[]) => boolean;
}

type Query = Record<string, string | number | undefined>;

/**
 * What a walk reads through: the check's server (core/transport/api.ts Api) as far as a walk uses
 * it. Named here so that the walks need not import Api, whose writes read back through them
 * (core/transport/read-back.ts): neither imports the other.
 */
export interface ListReader {
  get(path: string, query?: Query): Promise<Response>;
  /** How many pages a walk may follow on this run (--max-pages). */
  readonly pageBudget: number;
  /** The page size each list took after refusing a larger one, for the whole run. */
  readonly takenPageSizes: Map<string, number>;
}

/**
 * A refusal that may be about the page size: a 4xx that is not about the caller, the route or
 * the rate (no maximum is shown, and a server may say "too large" with 400, 413, 416 or 422).
 */
const NOT_ABOUT_SIZE = new Set([401, 403, 404, 405, 409, 429]);
const refusesSize = (res: Response) => res.status >= 400 && res.status < 500 && !NOT_ABOUT_SIZE.has(res.status);

/** The page budget of a walk of `listLength` items whose pages so far (none of them the last) held `sizes` items. */
function pagesFor(limits: WalkLimits, sizes: number[]): number {
  const byLength = limits.listLength === undefined ? Infinity : Math.ceil(limits.listLength / Math.max(1, Math.min(...sizes))) + 2;
  return Math.min(limits.maxPages ?? Infinity, byLength);
}

/**
 * One page at page size `size` of parameter `name`. No maximum of `limit` or `first` is shown,
 * so a server may refuse a size it finds too large: the size is then halved, down to 1, and the
 * page asked again, and later walks of the list start at the size it took. A server that serves
 * fewer items than asked (a silent cap) is no error either.
 */
async function pageAt(
  api: ListReader,
  path: string,
  query: Query,
  name: "first" | "limit",
  asked: number | undefined,
): Promise<{ res: Response; size: number | undefined }> {
  const taken = api.takenPageSizes;
  const key = `${name} ${path}`;
  let size = asked === undefined ? undefined : Math.min(asked, taken.get(key) ?? asked);
  for (let refused = false; ; refused = true) {
    const res = await api.get(path, { ...query, [name]: size });
    if (size === undefined || size <= 1 || !refusesSize(res)) {
      if (refused && res.status === 200) taken.set(key, size!);
      return { res, size };
    }
    size = Math.max(1, Math.floor(size / 2));
  }
}

/**
 * The walk's own failures carry reasons `walk:*`: one broken list fails every check that walks it,
 * and core/run/shared-defects.ts reads them as one defect.
 *
 * Follows `first`/`after` until hasNextPage is false. A server that keeps announcing a next page
 * without moving its cursor is caught here, not looped on forever. A page after a full one may be
 * empty (hasNextPage was true on the last full page): that is the walk's end, not an error. A list
 * longer than the run's page budget (a huge tenant) is walked that far and marked partial. With
 * `endpoint`, the walk is a precondition of the check: a first page that does not answer blocks it
 * (core/api/preconditions.ts).
 */
export async function walkCursor<T = unknown>(api: ListReader, path: string, opts: CursorWalkOptions<T> = {}): Promise<CursorWalk<T>> {
  const stopAfter = opts.stopAfter ?? api.pageBudget;
  const pages: CursorPage<T>[] = [];
  const seenCursors = new Set<string>();
  let after: string | undefined;
  let first = opts.first;
  for (;;) {
    const page = await pageAt(api, path, { ...opts.query, after }, "first", first);
    const res = page.res;
    first = page.size;
    if (opts.endpoint && !pages.length) requireAnswer(res, opts.endpoint, "the first page of the list");
    if (res.status !== 200 || !res.isJson)
      throw new CheckFailure(`page ${pages.length + 1} of the cursor walk was not a 200 JSON answer`, {
        expected: "200 with a JSON list",
        got: `${res.status} ${res.text.slice(0, 160)}`,
        exchange: res.exchange,
        reason: "walk:not-a-page",
      });
    const items: T[] = Array.isArray(res.body?.items) ? res.body.items : [];
    const pageInfo = res.body?.pageInfo;
    pages.push({ res, items, pageInfo });
    if (!pageInfo?.hasNextPage) break;
    if (opts.until?.(items)) return { pages, items: pages.flatMap((p) => p.items), first, partial: true };
    const cursor = pageInfo.endCursor;
    if (typeof cursor !== "string" || cursor === "")
      throw new CheckFailure("hasNextPage is true but endCursor gives no cursor to continue from", {
        expected: "a string endCursor",
        got: cursor,
        exchange: res.exchange,
        reason: "walk:no-cursor",
      });
    if (seenCursors.has(cursor))
      throw new CheckFailure("the cursor walk returned an endCursor it had returned before: it would never end", {
        expected: "a new cursor on each page",
        got: cursor,
        exchange: res.exchange,
        reason: "walk:repeated-cursor",
      });
    seenCursors.add(cursor);
    const budget = pagesFor(
      opts,
      pages.map((p) => p.items.length),
    );
    if (pages.length >= budget) {
      const sizes = first === undefined ? "the server's default page size (no first sent)" : `first=${first}, the page size the server accepted`;
      const served =
        opts.listLength === undefined ? "" : ` (a list of ${opts.listLength} items, at most ${Math.min(...pages.map((p) => p.items.length))} a page as served)`;
      throw new CheckFailure(`the cursor walk did not end within ${budget} pages at ${sizes}${served}`, {
        expected: `hasNextPage false by page ${budget}`,
        got: `hasNextPage still true on page ${pages.length}, after ${pages.reduce((n, p) => n + p.items.length, 0)} items`,
        exchange: res.exchange,
        reason: "walk:endless",
      });
    }
    if (pages.length >= stopAfter) return { pages, items: pages.flatMap((p) => p.items), partial: true };
    after = cursor;
  }
  return { pages, items: pages.flatMap((p) => p.items), first, partial: false };
}

/** How many walks a search for an item makes before it concludes the list does not hold it. */
export const WALKS_BEFORE_ABSENCE = 5;

/**
 * Walks `read` (a whole walk of one list, or of a tree of lists) again while what it yields does
 * not show what `shows` looks for, up to WALKS_BEFORE_ABSENCE walks; the last walk is returned.
 * The spec leaves cursors opaque: a cursor that is a position skips an item whenever items before
 * it are deleted between two pages, as the run's other checks do beside this one. So one walk
 * proves presence, and absence only when every walk agrees.
 */
export async function walkAgainUntil<W>(read: () => Promise<W>, shows: (walk: W) => boolean): Promise<W> {
  let walk = await read();
  for (let walks = 1; walks < WALKS_BEFORE_ABSENCE && !shows(walk); walks++) walk = await read();
  return walk;
}

export interface OffsetWalk<T = unknown> {
  pages: Response[];
  items: T[];
  /** The `limit` the server took: the one asked for, or a smaller one after it refused that. */
  limit: number;
  partial: boolean;
}

/**
 * Follows `offset`/`limit` to the end of the list: pagination.total when the body gives it, else a
 * page shorter than the limit the server says it used. Each offset moves by the items received, so
 * a server that caps the limit silently loses nothing; one that refuses the limit gets a smaller one.
 * `list` picks the array out of the body; `query` goes with every page (a filter). Limits as walkCursor's.
 */
export async function walkOffset<T = unknown>(
  api: ListReader,
  path: string,
  limit: number,
  list: (body: unknown) => T[] | undefined,
  limits: WalkLimits & { query?: Query } = {},
): Promise<OffsetWalk<T>> {
  const stopAfter = limits.stopAfter ?? api.pageBudget;
  const pages: Response[] = [];
  const items: T[] = [];
  const sizes: number[] = [];
  let size: number | undefined = limit;
  for (let offset = 0; pages.length < pagesFor(limits, sizes); ) {
    if (pages.length >= stopAfter) return { pages, items, limit: size!, partial: true };
    const page = await pageAt(api, path, { ...limits.query, offset }, "limit", size);
    const res = page.res;
    size = page.size;
    pages.push(res);
    const got = res.status === 200 && res.isJson ? list(res.body) : undefined;
    if (!Array.isArray(got))
      throw new CheckFailure(`offset page at ${offset} was not a 200 JSON list`, {
        got: `${res.status} ${res.text.slice(0, 160)}`,
        exchange: res.exchange,
        reason: "walk:not-a-page",
      });
    items.push(...got);
    sizes.push(got.length);
    offset += got.length;
    const { total, limit: used } = res.body?.pagination ?? {};
    if (got.length === 0) return { pages, items, limit: size!, partial: false };
    if (typeof total === "number" ? offset >= total : got.length < (typeof used === "number" && used > 0 ? Math.min(used, size!) : size!))
      return { pages, items, limit: size!, partial: false };
  }
  const served = limits.listLength === undefined ? "" : ` (a list of ${limits.listLength} items, at most ${Math.min(...sizes)} a page as served)`;
  throw new CheckFailure(`the offset walk did not end within ${pages.length} pages at limit=${size}, the page size the server accepted${served}`, {
    expected: `the end of the list (pagination.total, or a short page) by page ${pages.length}`,
    got: `${items.length} items in ${pages.length} full pages, no end yet`,
    exchange: pages.at(-1)?.exchange,
    reason: "walk:endless",
  });
}

/**
 * The walk, when it covered the whole list. A check whose rule is about the whole list (every
 * item once, the count) is not exercised on a list longer than the run's page budget: it says so
 * (a partial walk), and a failure is never guessed from a part.
 */
export function wholeList<W extends { pages: unknown[]; partial: boolean }>(walk: W, what: string): W {
  if (walk.partial)
    throw new NotExercised(
      `partial walk: the ${what} list runs past the page budget of ${walk.pages.length} pages (--max-pages); the rule is about the whole list`,
    );
  return walk;
}

/** The page size a walk by offset asks for after the server's first page (a server that caps it lower answers fewer, and the walk reads on). */
export const OFFSET_PAGE = 100;

/**
 * The next page of a list paged by offset (E1's deployments: `offset`, `limit`, `pagination`), after
 * a page with no cursor that held `entries` of the `seen` read so far: on to the total the answer
 * shows, or while pages come full; undefined at the end (or where the answer shows no `pagination`).
 * `total` is what the answer shows, for a walk that reads to the end.
 */
export function nextOffsetPage(
  pagination: any,
  entries: number,
  seen: number,
): { offset: number; limit: number; shownLimit: number; total?: number } | undefined {
  if (!pagination || !entries) return undefined;
  const shownLimit = Number.isSafeInteger(pagination.limit) && pagination.limit > 0 ? pagination.limit : entries;
  const total = Number.isSafeInteger(pagination.total) ? (pagination.total as number) : undefined;
  if (total !== undefined ? seen >= total : entries < shownLimit) return undefined;
  return { offset: seen, limit: Math.max(shownLimit, OFFSET_PAGE), shownLimit, total };
}
