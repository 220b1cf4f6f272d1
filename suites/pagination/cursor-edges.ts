import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { OPERATIONS, type OperationName, pagedByCursor } from "../../core/api/operations.js";
import { isObject } from "../../core/ledger/records.js";
import { sideBySide } from "../lib/at-once.js";
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

/** The values below the minimum of 1 each list gets: the edge, and one past it. */
const BELOW_MINIMUM = [0, -1];

/**
 * E14's reads a run can address (no placeholder but the deployment's), the document aside (read
 * once a run, core/served/read.ts): among them the lists the table names cursor-paginated (E14 rule
 * 11 and the revision history: branches, data-model files, regions, user attributes, folders,
 * reports), and the others (users, groups, "and others") a server may page so.
 */
const E14_READS = OPERATIONS.filter((o) => o.section === "E14" && o.method === "GET" && o.name !== "getSpec" && /^[^{]*(\{deploymentId\}[^{]*)?$/.test(o.path));

/**
 * The E14 lists of this server that are cursor lists, with their paths: each its document names and
 * answers a page of one with 200 JSON (else it is not served, and a 4xx below would prove nothing),
 * and that the spec names cursor-paginated, or the server pages by cursor (its document gives the list
 * a `first`, or the page carries pageInfo). Without a document, none.
 */
async function e14CursorLists(ctx: CheckContext, dep: string): Promise<{ label: string; path: string }[]> {
  const doc = (await ctx.servedDocument().catch(() => undefined))?.model;
  if (!doc) return [];
  const named = E14_READS.flatMap((o) => {
    const served = doc.findNamed(o.name as OperationName);
    return served ? [{ o, served, path: pathTo(o.name as OperationName, { deploymentId: dep }) }] : [];
  });
  const pages = await sideBySide(named, ({ path }) => ctx.api.get(path, { first: 1 }));
  return named
    .filter(({ o, served }, i) => {
      const page = pages[i];
      const cursorPaged = pagedByCursor(o) || served.queryParam("first") !== undefined || isObject(page.body?.pageInfo);
      return page.status === 200 && page.isJson && cursorPaged;
    })
    .map(({ o, path }) => ({ label: `E14 ${o.method} ${o.path}`, path }));
}

/** first below its stated minimum of 1 (Limits: `first` minimum 1, cursor lists), on every cursor list: 0, the edge, and -1. */
export const paginationFirstBoundChecks = group("pagination", [
  {
    id: "pagination.cursor.first-below-minimum-rejected",
    spec: "Pagination styles 2 (first minimum 1); Limits (first minimum 1, cursor lists); E2, E8, E13; E14 rule 11",
    // SHOULD, as limit=0 on E1: the minimum is stated, what a server does below it is not.
    level: "SHOULD",
    title:
      "first=0 and first=-1, below the minimum of 1, are rejected with a 4xx on every cursor list: environments, workbooks, variables, and each E14 list the server documents and pages by cursor (branches, data-model files, regions, user attributes, folders, reports, users, groups, ...)",
    needs: ["fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      for (const [endpoint, path] of cursorLists(dep)) {
        // The list is served (a 4xx below would prove nothing from a server without the route).
        ctx.requireRoute(await ctx.api.get(path, { first: 1 }), endpoint, "a page of one item");
        for (const first of BELOW_MINIMUM)
          ctx.expect.clientError(await ctx.api.get(path, { first }), `${endpoint}: first=${first}, below the minimum of 1, is rejected`);
      }
      // A list this server does not serve, or does not page by cursor, is none of the rule's business.
      const cases = (await e14CursorLists(ctx, dep)).flatMap((list) => BELOW_MINIMUM.map((first) => ({ ...list, first })));
      // Reads change nothing: side by side, judged in order.
      const answers = await sideBySide(cases, ({ path, first }) => ctx.api.get(path, { first }));
      for (const [i, { label, first }] of cases.entries()) ctx.expect.clientError(answers[i], `${label}: first=${first}, below the minimum of 1, is rejected`);
    },
  },
]);
