import { group } from "../../core/check/check.js";
import { NotExercised } from "../../core/model/outcome.js";
import { walkCursor } from "../../core/transport/pagination.js";
import { pathTo } from "../../core/transport/client.js";
import { exactlyFullPagesOf, expectLastPageSaysSo, WHOLE_PAGE } from "../lib/cursor-walk.js";
import { varsPath } from "../lib/env-var-calls.js";

/** The longest list asked for in one page: a thousand items keep an answer far below what the tester reads (8 MiB). */
const LARGEST_WHOLE_PAGE = 1000;

/**
 * hasNextPage on the last page of every cursor list the deployment has beside E2 (whose own check
 * is environments.cursor.page-info-exact): E8's workbooks and E13's variables, each walked where its
 * last page is exactly full, the edge a server that counts "a full page" as "a next page" gets wrong.
 */
export const paginationLastPageChecks = group("pagination", [
  {
    id: "pagination.cursor.last-page-exact",
    spec: "Resources / PageInfo; Pagination styles 2; E8, E13",
    // SHOULD: that hasNextPage is false on the page holding the last item (and not on an empty page after it) is what its name implies.
    level: "SHOULD",
    title:
      "On the workbooks (E8) and variables (E13) lists, the page holding the last item says hasNextPage false when that page is exactly full: one page of them all, and pages of a size that divides the count",
    needs: ["fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      let judged = 0;
      for (const [what, path, endpoint] of [
        ["workbook", pathTo("listWorkbooks", { deploymentId: dep }), "E8"],
        ["variable", varsPath(dep), "E13"],
      ] as const) {
        const whole = await walkCursor(ctx.api, path, { first: WHOLE_PAGE, endpoint });
        // A list of one item has no boundary between pages; a partial walk no whole count; a list
        // past LARGEST_WHOLE_PAGE would be one answer too large to read whole.
        if (whole.partial || whole.items.length < 2 || whole.items.length > LARGEST_WHOLE_PAGE || whole.pages[0].pageInfo == null) continue;
        judged++;
        for (const first of exactlyFullPagesOf(whole.items.length))
          expectLastPageSaysSo(ctx.expect, await walkCursor(ctx.api, path, { first, maxPages: whole.items.length + 2 }), whole.items.length, first, what);
      }
      if (!judged) throw new NotExercised(`neither E8 nor E13 answered a list of 2 to ${LARGEST_WHOLE_PAGE} items with pageInfo, read whole`);
    },
  },
]);

/** The deployment's cursor lists the spec names (Pagination styles 2: first, minimum 1), with their sections. */
const cursorLists = (dep: string) =>
  [
    ["E2", pathTo("listEnvironments", { deploymentId: dep })],
    ["E8", pathTo("listWorkbooks", { deploymentId: dep })],
    ["E13", varsPath(dep)],
  ] as const;

/** first below its stated minimum of 1 (Limits: `first` minimum 1, cursor lists), on every cursor list: 0, the edge, and -1. */
export const paginationFirstBoundChecks = group("pagination", [
  {
    id: "pagination.cursor.first-below-minimum-rejected",
    spec: "Pagination styles 2 (first minimum 1); Limits (first minimum 1, cursor lists); E2, E8, E13",
    // SHOULD, as limit=0 on E1: the minimum is stated, what a server does below it is not.
    level: "SHOULD",
    title: "first=0 and first=-1, below the minimum of 1, are rejected with a 4xx on every cursor list (environments, workbooks, variables)",
    needs: ["fixture:deployment"],
    async run(ctx) {
      for (const [endpoint, path] of cursorLists(ctx.fixture("deployment").id)) {
        // The list is served (a 4xx below would prove nothing from a server without the route).
        ctx.requireRoute(await ctx.api.get(path, { first: 1 }), endpoint, "a page of one item");
        for (const first of [0, -1])
          ctx.expect.clientError(await ctx.api.get(path, { first }), `${endpoint}: first=${first}, below the minimum of 1, is rejected`);
      }
    },
  },
]);
