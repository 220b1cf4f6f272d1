import fc from "fast-check";
import type { Api } from "../../core/transport/api.js";
import { groupedById } from "../../core/check/check.js";
import { NotExercised } from "../../core/model/outcome.js";
import { walkCursor } from "../../core/transport/pagination.js";
import { forAll, CASES_AT_ONCE } from "../../core/run/property.js";
import { pageSize } from "../../generators/index.js";
import { expectPagesCapped, expectWalkCovers } from "../lib/cursor-walk.js";
import { pathTo } from "../../core/transport/client.js";
import { WHOLE_PAGE } from "../lib/cursor-walk.js";
import { varsPath } from "../lib/env-var-calls.js";
import { atOnce } from "../lib/at-once.js";

/** The largest page a property asks for: no maximum is shown, and a thousand items keep an answer far below what the tester reads (8 MiB). */
const LARGEST_PAGE = 1000;

interface CursorList {
  what: string;
  path: string;
  key: (item: any) => string;
  /** The whole list, read once at a large page size before the trials. */
  keys: string[];
}

/**
 * The deployment's cursor lists (E2, E8, E13) that answer with items and a pageInfo object, read
 * whole. E2's control-plane shape and a null pageInfo offer no cursor to walk: such a list is left
 * out, not failed.
 */
async function cursorLists(api: Api, dep: string): Promise<CursorList[]> {
  const lists = [
    { what: "environment", path: pathTo("listEnvironments", { deploymentId: dep }), key: (e: any) => String(e?.id) },
    { what: "workbook", path: pathTo("listWorkbooks", { deploymentId: dep }), key: (w: any) => String(w?.id) },
    { what: "variable", path: varsPath(dep), key: (v: any) => String(v?.name) },
  ];
  // The lists are read at once: each walk is one list's own.
  const read = await atOnce(
    lists.map(async (l): Promise<CursorList | undefined> => {
      // The server's default page: no maximum of first is shown, so none is asked for here.
      const page = await api.get(l.path);
      if (page.status !== 200 || !page.isJson || !Array.isArray(page.body?.items) || !page.body?.pageInfo || typeof page.body.pageInfo !== "object")
        return undefined;
      const walk = await walkCursor(api, l.path, { first: WHOLE_PAGE });
      // A list longer than the page budget (a partial walk) has no whole to compare walks with.
      const keys = walk.items.map(l.key);
      return keys.length && !walk.partial ? { ...l, keys } : undefined;
    }),
  );
  return read.filter((l) => l !== undefined);
}

/** The most pages a drawn page size walks a list in. */
const DRAWN_WALK_PAGES = 20;

export const paginationPropertyChecks = groupedById([
  {
    id: "pagination.cursor.any-page-size",
    spec: "Pagination styles 2; E2, E8, E13",
    level: "MUST",
    title:
      "For first=1 and any page size from 1 to n+2, every page of a cursor walk holds at most first items, and the walk yields every item of the list exactly once",
    kind: "property",
    needs: ["fixture:deployment"],
    async run(ctx) {
      const lists = await cursorLists(ctx.api, ctx.fixture("deployment").id);
      if (!lists.length) throw new NotExercised("none of E2, E8, E13 answers a non-empty list with items and pageInfo: there is no cursor to walk");
      // first=1, the stated minimum, walked to the end of every list: the edge a drawn size may miss.
      // The walks read nothing another changes: all at once, and beside the drawn sizes' walks
      // below, each judged in the lists' order (and before them).
      const firstOne = async () => {
        const edges = await atOnce(lists.map((l) => walkCursor(ctx.api, l.path, { first: 1, maxPages: l.keys.length + 2 })));
        lists.forEach((l, i) => {
          const walk = edges[i];
          expectPagesCapped(ctx.expect, walk.pages, "first", 1, l.what);
          if (!walk.partial) expectWalkCovers(ctx.expect, walk.items.map(l.key), l.keys, `${l.what} (first=1)`, walk.pages.at(-1)?.res);
        });
      };
      // A trial walks one list at a few page sizes; a long list from a size that keeps a walk within
      // 20 pages (and the page budget): the smallest sizes' long walks are first=1's above, and at
      // 40 ms a round trip each page of a walk is one more in a row (issue 21, the budget).
      // A page of at most LARGEST_PAGE items: a whole huge list in one answer would outgrow what the tester reads.
      const walks = fc.oneof(
        ...lists.map((l) =>
          fc
            .uniqueArray(pageSize(l.keys.length, { maxPages: Math.min(DRAWN_WALK_PAGES, ctx.api.pageBudget), max: LARGEST_PAGE }), {
              minLength: 1,
              maxLength: 3,
            })
            .map((sizes) => ({ list: l.what, sizes })),
        ),
      );
      // A trial is whole walks, a page a request: twice the default budget, so that the walks reach the small page sizes.
      const drawn = () =>
        forAll(
          ctx,
          walks,
          async ({ list, sizes }, api) => {
            const l = lists.find((x) => x.what === list)!;
            const walks = await atOnce(sizes.map((first) => walkCursor(api, l.path, { first, listLength: l.keys.length })));
            sizes.forEach((first, i) => {
              const walk = walks[i];
              expectPagesCapped(ctx.expect, walk.pages, "first", walk.first ?? first, l.what);
              expectWalkCovers(ctx.expect, walk.items.map(l.key), l.keys, `${l.what} (first=${first})`, walk.pages.at(-1)?.res);
            });
          },
          { maxRequests: 300, casesAtOnce: CASES_AT_ONCE },
        );
      await atOnce([firstOne(), drawn()]);
    },
  },
]);
