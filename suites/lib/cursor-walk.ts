import type { Api } from "../../core/transport/api.js";
import type { Expect } from "../../core/api/expect.js";
import type { Response } from "../../core/transport/http.js";
import type { CursorWalk } from "../../core/transport/pagination.js";

/** A page size that reads an ordinary list whole in one or two pages (a refused size is halved by the walk). */
export const WHOLE_PAGE = 100;
/** The default offset page size: a server must serve pages this long, whatever cap it has above. */
export const SURE_LIMIT = 20;

/**
 * A `first` that makes a walk of `total` items span several pages (2 for lists up to 40 items)
 * without turning a long list into hundreds of requests.
 */
export function severalPagesOf(total: number): number {
  return total <= 2 ? 1 : Math.max(2, Math.ceil(total / 20));
}

/**
 * The page sizes that leave the last page of `total` items exactly full: one page of them all, and
 * pages of the largest size that divides the count. A server that says "a next page" whenever a page
 * is full is right on a partly filled last page only.
 */
export function exactlyFullPagesOf(total: number): number[] {
  const divisor = [...Array(total).keys()].reverse().find((d) => d > 1 && d < total && total % d === 0);
  return divisor ? [total, divisor] : [total];
}

/**
 * The page holding the last of `total` items says there is no next page (hasNextPage false), or,
 * shown whole, leaves pageInfo out (facts: optional or null there): no empty page follows it.
 */
export function expectLastPageSaysSo(expect: Expect, walk: CursorWalk, total: number, first: number, what: string): void {
  let seen = 0;
  const last = walk.pages.findIndex((p) => (seen += p.items.length) >= total);
  const page = walk.pages[last === -1 ? walk.pages.length - 1 : last];
  if (page.pageInfo == null && walk.pages.length === 1) return;
  const full = page.items.length === first ? "exactly full" : "partly filled";
  expect.equal(
    page.pageInfo?.hasNextPage,
    false,
    `first=${first}: page ${last + 1} (${full}), which holds the last of ${total} ${what}s: hasNextPage is false`,
    {
      res: page.res,
      reason: "last-page",
    },
  );
}

/**
 * The smallest pages a walk of `total` items affords: one item a page up to 20 items, else 20
 * pages. A rule of every page (a filter) shows on the most pages there.
 */
export function smallestPagesOf(total: number): number {
  return Math.max(1, Math.ceil(total / 20));
}

/**
 * The keys a cursor walk yielded are exactly those of the whole list: none on two pages, none
 * left out, none that the whole list does not hold. `what` names one item ("environment").
 */
export function expectWalkCovers(expect: Expect, walked: string[], whole: string[], what: string, res?: Response): void {
  const twice = [...new Set(walked.filter((k, i) => walked.indexOf(k) !== i))];
  expect.that(twice.length === 0, `no ${what} appears twice in the cursor walk`, {
    reason: "repeated",
    expected: "each once",
    got: `repeated: ${twice.join(", ")}`,
    res,
  });
  const seen = new Set(walked);
  const missing = whole.filter((k) => !seen.has(k));
  expect.that(missing.length === 0, `every ${what} of the whole list appears in the cursor walk`, {
    reason: "missing",
    expected: `${whole.length} items`,
    got: `missing: ${missing.join(", ")}`,
    res,
  });
  const known = new Set(whole);
  const extra = walked.filter((k) => !known.has(k));
  expect.that(extra.length === 0, `the cursor walk yields no ${what} outside the whole list`, {
    expected: "only items of the whole list",
    got: `extra: ${extra.join(", ")}`,
    res,
    reason: "extra",
  });
}

/**
 * pageInfo may be null or absent on a list shown whole (the published document makes it
 * optional there), never on a page that leaves items for the next: without it there is no cursor
 * to go on. Asks `path` for a page of one item when the whole list holds `count` (at least two).
 */
export async function expectPageInfoOnPartialPage(api: Api, expect: Expect, path: string, count: number, what: string): Promise<void> {
  if (count < 2) return;
  const res = await api.get(path, { first: 1 });
  const body = expect.ok(res);
  // A page that held the whole list (a server that serves more than first asks) leaves nothing for a next page.
  if (body?.pageInfo == null && Array.isArray(body?.items) && body.items.length >= count) return;
  expect.schema(body?.pageInfo, "PageInfo", res, `the pageInfo of a page of first=1 out of ${count} ${what}s`);
}

/**
 * Pagination styles 1 and 2: `limit` and `first` cap every page of a walk, not only the first:
 * each page holds at most `size` items. `pages` are the walk's pages with the items each held.
 */
export function expectPagesCapped(expect: Expect, pages: { items: unknown[]; res: Response }[], param: "first" | "limit", size: number, what: string): void {
  for (const [i, page] of pages.entries())
    expect.that(page.items.length <= size, `page ${i + 1} of the walk at ${param}=${size} holds at most ${size} ${what}s`, {
      expected: `<= ${size}`,
      got: page.items.length,
      res: page.res,
      reason: "page-cap",
    });
}
