import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { field } from "../../core/served/served-operations.js";
import { pathTo } from "../../core/transport/client.js";
import { documented, ok2xx, records, shownStatus } from "../lib/e14.js";
import { expectWalkCovers } from "../lib/cursor-walk.js";
import { WRITES } from "../lib/needs.js";
import { listReports, ownReport } from "../lib/reports.js";

/**
 * Versioning 0.1.x made the reports list cursor-paginated (first, after: Pagination styles 2), and
 * E14 rule 5 sorts it by name, createdAt or updatedAt with a cursor (only lastViewedAt has none):
 * a cursor must continue the sorted list, not the order of ids. Also the create-or-update by
 * public id of E14: a second PUT to the same publicId changes that report.
 */

/** The reports the walk spans: five, so that first=2 leaves a partly filled last page. */
const MADE = 5;
/** Created in this order, which is no name order in either direction. */
const LETTERS = ["c", "e", "a", "d", "b"];
/** The sorts that page with a cursor (E14 rule 5: none with lastViewedAt). */
const CURSOR_SORTS = ["name", "createdAt", "updatedAt"];
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Walked {
  pages: { res: Response; items: any[] }[];
  items: any[];
}

/**
 * The list followed page by page with `first` and after = endCursor, while pageInfo says there is
 * a next page; at most `maxPages` pages, and never a cursor twice (a walk that would go on for ever).
 * Records through `records` (items, data or an array: E14 shows no shape).
 */
async function walkPages(ctx: CheckContext, path: string, query: Record<string, string>, first: number, maxPages: number): Promise<Walked> {
  const pages: Walked["pages"] = [];
  const cursors = new Set<string>();
  let after: string | undefined;
  while (pages.length < maxPages) {
    const res = await ctx.api.get(path, { ...query, first, after });
    ctx.expect.status(res, 200, `GET ${path} (${new URLSearchParams({ ...query, first: String(first) })}${after ? ", after" : ""})`, "list-status");
    pages.push({ res, items: records(ctx, res, "a page of the reports list") });
    const info = res.body?.pageInfo;
    if (!info?.hasNextPage || typeof info.endCursor !== "string" || info.endCursor === "" || cursors.has(info.endCursor)) break;
    cursors.add((after = info.endCursor));
  }
  return { pages, items: pages.flatMap((p) => p.items) };
}

/** The sort key of a report as the walk compares it: its name, or the instant of the timestamp. */
function keyOf(r: any, sortBy: string): string | number | undefined {
  const v = field(r, sortBy === "name" ? "name|title" : sortBy);
  if (typeof v !== "string") return undefined;
  if (sortBy === "name") return v;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

/** Keys in one direction, ties allowed (the direction is not shown). */
function oneDirection(keys: (string | number)[]): boolean {
  const up = keys.every((k, i) => i === 0 || keys[i - 1] <= k);
  const down = keys.every((k, i) => i === 0 || keys[i - 1] >= k);
  return up || down;
}

export const reportWalkChecks = group("reports", [
  {
    id: "reports.list.sorted-cursor-walk",
    spec: "E14 rule 5; Pagination styles 2",
    level: "MUST",
    title:
      "Sorted by name, createdAt or updatedAt and walked one and two reports a page (after = endCursor), the reports list yields every report once, in the sort's order across the pages",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const doc = await documented(ctx);
      const tag = ctx.scratch.slug("walked");
      // A little apart, so that the timestamps differ where a server keeps milliseconds.
      for (const letter of LETTERS) {
        await ownReport(ctx, doc, dep, `${tag}-${letter}`);
        await pause(15);
      }
      const path = pathTo("listReports", { deploymentId: dep });
      let crossed = 0;
      for (const sortBy of CURSOR_SORTS) {
        const query = { sortBy, search: tag };
        const whole = await listReports(ctx, dep, query);
        // Only the run's reports, each once: a walk through others' reports would meet the creates and
        // deletes of the checks beside this one, which move an honest cursor too.
        const foreign = whole.items.filter((r) => !String(field(r, "name|title") ?? "").startsWith(tag));
        if (foreign.length || whole.items.length !== MADE)
          throw new NotVerifiable(
            `search=${tag} listed ${whole.items.length} report(s), ${foreign.length} not of the run's ${MADE}: the walk needs the run's reports alone`,
          );
        const wholeIds = whole.items.map((r) => String(r?.id));
        for (const first of [1, 2]) {
          const walk = await walkPages(ctx, path, query, first, MADE + 3);
          const res = walk.pages.at(-1)?.res;
          if (walk.pages.length > 1) crossed++;
          expectWalkCovers(
            ctx.expect,
            walk.items.map((r) => String(r?.id)),
            wholeIds,
            `report (sortBy=${sortBy}, first=${first})`,
            res,
          );
          const keys = walk.items.map((r) => keyOf(r, sortBy));
          if (keys.some((k) => k === undefined)) continue;
          ctx.expect.that(oneDirection(keys as (string | number)[]), `sortBy=${sortBy} walked at first=${first} keeps ${sortBy} order across the pages`, {
            expected: `${sortBy} ascending or descending over the whole walk`,
            got: walk.items.map((r) => `${r?.id}: ${field(r, sortBy === "name" ? "name|title" : sortBy)}`),
            res,
            reason: "walk-order",
          });
        }
      }
      if (!crossed) throw new NotExercised(`no walk at first=1 or first=2 of ${MADE} reports took more than one page: no page boundary was crossed`);
    },
  },
  {
    id: "reports.upsert.same-public-id-updates",
    spec: "E14 (PUT .../reports/by-public-id/{publicId}: create or update a report by public id)",
    level: "MUST",
    title: "A second PUT to the same publicId with a new name updates that report: the same id, one report of that publicId, the new name",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const doc = await documented(ctx);
      const op = doc.requireNamed("upsertReportByPublicId", "creates or updates a report by public id");
      const tag = ctx.scratch.slug("upserted");
      const own = await ownReport(ctx, doc, dep, `${tag}-before`);
      const renamed = `${tag}-after`;
      const res = await ctx.api.call("upsertReportByPublicId", { deploymentId: dep, publicId: own.sentPublicId }, { body: op.body({ "name|title": renamed }) });
      ctx.expect.that(ok2xx(res), "the second PUT to the same publicId is accepted", {
        expected: "a 2xx",
        got: shownStatus(res),
        res,
        reason: "upsert-accepted",
      });
      const answered = res.isJson ? field(op.record(res), "id") : undefined;
      if (answered !== undefined)
        ctx.expect.equal(String(answered), String(own.id), `the second PUT answers report ${own.id}, the one the first made`, {
          res,
          reason: "same-report-id",
        });
      // The reports of the tag, whether or not search narrows the list: exactly the one report, renamed.
      const listed = await listReports(ctx, dep, { search: tag });
      const ofTag = listed.items.filter((r) => String(field(r, "name|title") ?? "").startsWith(tag));
      ctx.expect.equal(
        ofTag.map((r) => `${r?.id}: ${field(r, "name|title")}`),
        [`${own.id}: ${renamed}`],
        `the reports list holds report ${own.id} alone for publicId ${own.sentPublicId}, under its new name`,
        { res: listed.res, reason: "one-report" },
      );
    },
  },
]);
