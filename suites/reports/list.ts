import { group } from "../../core/check/check.js";
import { readOnlyFolder } from "../lib/read-only-folder.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import type { Api } from "../../core/transport/api.js";
import { statusLine } from "../../core/api/expect.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import type { ServedModel } from "../../core/served/model.js";
import { field, listed } from "../../core/served/served-operations.js";
import { documented, records, setup } from "../lib/e14.js";
import { WRITES } from "../lib/needs.js";
import { createFolder } from "../lib/scratch-items.js";
import { listReports, ownReport } from "../lib/reports.js";
import { onEveryReadPath, SORT_BY } from "./read-paths.js";

/**
 * E14 rule 5: the reports list takes sortBy createdAt, updatedAt, lastViewedAt and name (no cursor
 * when sorting by lastViewedAt) and filters by folderId, search and externalWorkbookId; a
 * placement in a spreadsheet needs only read access (Authentication 4).
 */

/** The one page a list answers without first or after (the reports sorted by lastViewedAt, which pages by no cursor). */
async function onePage(ctx: CheckContext, dep: string, query: Record<string, string>): Promise<{ res: Response; items: any[] }> {
  const res = await ctx.api.call("listReports", { deploymentId: dep }, { query });
  ctx.expect.status(res, 200, `GET the reports list (${new URLSearchParams(query)})`, "list-status");
  return { res, items: records(ctx, res, "the reports list") };
}

/** Places a report in a spreadsheet cell, as the document spells the address; the placement is removed at cleanup. */
async function place(ctx: CheckContext, doc: ServedModel, dep: string, reportId: number, external: string, as = ctx.api): Promise<Response> {
  const op = doc.requireNamed("connectReportWorkbook", "places a report in a spreadsheet");
  const address = { externalWorkbookId: external, sheetName: "Sheet1", anchorCell: "B2" };
  const report = { deploymentId: dep, reportId };
  const res = await as.call("connectReportWorkbook", report, { body: op.body(address) });
  if (res.status < 300 && doc.findNamed("disconnectReportWorkbook"))
    ctx.scratch.onCleanup(
      `remove the placement of report ${reportId}`,
      async () => void (await ctx.api.call("disconnectReportWorkbook", report, { query: address })),
    );
  return res;
}

/** Whether a caller's reports list, filtered by the folder, shows the report on its first page: the caller reads it. */
async function listsReport(as: Api, dep: string, folderId: number, reportId: number): Promise<boolean> {
  const res = await as.call("listReports", { deploymentId: dep }, { query: { folderId: String(folderId), first: "100" } });
  return res.status === 200 && res.isJson && (listed(res.body) ?? []).some((r: any) => r?.id === reportId);
}

/** The sortBy values that order by a timestamp. */
const DATE_SORTS = ["createdAt", "updatedAt", "lastViewedAt"];
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Timestamps in list order run one way (ties allowed): ascending or descending, the direction not being shown. */
function inOneDirection(times: number[]): boolean {
  const up = times.every((t, i) => i === 0 || times[i - 1] <= t);
  const down = times.every((t, i) => i === 0 || times[i - 1] >= t);
  return up || down;
}

export const reportListChecks = group("reports", [
  {
    id: "reports.list.sort-by-values",
    spec: "E14 rule 5",
    level: "MUST",
    title: "The reports list accepts sortBy createdAt, updatedAt, lastViewedAt and name",
    needs: ["fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      (await documented(ctx)).requireNamed("listReports", "lists reports");
      for (const sortBy of SORT_BY) {
        const res = await ctx.api.call("listReports", { deploymentId: dep }, { query: { sortBy } });
        ctx.expect.status(res, 200, `sortBy=${sortBy} is accepted`, "sort-by-accepted");
      }
      // A value that differs from a stated one by case only: the spec does not say whether sortBy is
      // case-sensitive, so a refusal and a sort both do; a 5xx does not.
      const variant = "CreatedAt";
      const res = await ctx.api.call("listReports", { deploymentId: dep }, { query: { sortBy: variant } });
      ctx.expect.that(res.status < 500, `sortBy=${variant} (a stated value in another case) is sorted by or refused`, {
        expected: "a status below 500",
        got: res.status,
        res,
        reason: "no-5xx",
      });
    },
  },
  {
    id: "reports.list.sorted-by-name",
    spec: "E14 rule 5",
    level: "MUST",
    title: "sortBy=name lists reports in the order of their names (either direction)",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const doc = await documented(ctx);
      const tag = ctx.scratch.slug("sorted");
      // Created out of name order, so that creation order is no name order in either direction.
      for (const letter of ["b", "c", "a"]) await ownReport(ctx, doc, dep, `${tag}-${letter}`);
      const { res, items } = await listReports(ctx, dep, { sortBy: "name", search: tag });
      const names = items.map((r) => field(r, "name|title")).filter((n) => typeof n === "string" && n.startsWith(tag));
      if (names.length < 3) throw new NotVerifiable(`the search for ${tag} listed ${names.length} of the 3 reports created: the order cannot be read`);
      const asc = [...names].sort();
      ctx.expect.that(
        JSON.stringify(names) === JSON.stringify(asc) || JSON.stringify(names) === JSON.stringify([...asc].reverse()),
        "the reports are in name order",
        { expected: `${asc.join(", ")} (or reversed)`, got: names.join(", "), res, reason: "sorted" },
      );
    },
  },
  {
    id: "reports.list.last-viewed-no-cursor",
    spec: "E14 rule 5",
    level: "MUST",
    title: "Sorted by lastViewedAt, the reports list cannot be paged with a cursor: none is offered, or an after is refused",
    needs: ["fixture:deployment"],
    async run(ctx) {
      const offer = await lastViewedCursorOffer(ctx);
      if (!offer.cursor) return;
      // "Not available" holds where the cursor offered is refused: the offer is the SHOULD check's finding.
      const next = await ctx.api.call("listReports", { deploymentId: offer.dep }, { query: { sortBy: "lastViewedAt", first: 1, after: offer.cursor } });
      ctx.expect.that(
        next.status >= 400 && next.status < 500,
        "a cursor offered when sorting by lastViewedAt does not page the list on: the after is refused",
        { expected: "no cursor offered, or a 4xx to after", got: statusLine(next), res: next, reason: "no-cursor" },
      );
    },
  },
  {
    id: "reports.list.last-viewed-no-cursor-offered",
    spec: "E14 rule 5",
    level: "SHOULD",
    title: "Sorted by lastViewedAt, the reports list offers no cursor a client could not use",
    needs: ["fixture:deployment"],
    async run(ctx) {
      const offer = await lastViewedCursorOffer(ctx);
      ctx.expect.that(!offer.cursor, "no endCursor to continue from is offered when sorting by lastViewedAt", {
        expected: "no cursor (pageInfo null, or no next page)",
        got: offer.res?.body?.pageInfo,
        res: offer.res,
        reason: "cursor-offered",
      });
    },
  },
  {
    id: "reports.list.search-filter",
    spec: "E14 rule 5",
    level: "MUST",
    title: "search lists the reports whose name holds the term, and only those, in the list's own order and sorted by each sortBy value",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const name = ctx.scratch.name("findme");
      const own = await ownReport(ctx, await documented(ctx), dep, name);
      for (const { label, res, items } of await onEveryReadPath(ctx, dep, { search: name })) {
        ctx.expect.that(
          items.some((r) => r?.id === own.id),
          `the report named with the term is listed, ${label}`,
          { expected: `report ${own.id}`, got: items.map((r) => r?.id), res, reason: "match-listed" },
        );
        const others = items.filter((r) => !JSON.stringify(r).toLowerCase().includes(name.toLowerCase()));
        ctx.expect.equal(
          others.map((r) => r?.id),
          [],
          `no report without the term is listed, ${label}`,
          { res, reason: "only-matches" },
        );
      }
    },
  },
  {
    id: "reports.list.external-workbook-filter",
    spec: "E14 rule 5",
    level: "MUST",
    title: "externalWorkbookId lists the reports placed in that spreadsheet, and only those, in the list's own order and sorted by each sortBy value",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const doc = await documented(ctx);
      const own = await ownReport(ctx, doc, dep, ctx.scratch.name("placed"));
      const external = ctx.scratch.slug("sheet");
      setup(ctx, await place(ctx, doc, dep, own.id, external), `placing report ${own.id} in spreadsheet ${external}`);
      for (const { label, res, items } of await onEveryReadPath(ctx, dep, { externalWorkbookId: external })) {
        ctx.expect.that(
          items.some((r) => r?.id === own.id),
          `the report placed in the spreadsheet is listed, ${label}`,
          { expected: `report ${own.id}`, got: items.map((r) => r?.id), res, reason: "match-listed" },
        );
        ctx.expect.equal(
          items.filter((r) => r?.id !== own.id).map((r) => r?.id),
          [],
          `no report outside the spreadsheet is listed, ${label}`,
          { res, reason: "only-matches" },
        );
      }
    },
  },
  {
    id: "reports.placement.read-access-suffices",
    spec: "Authentication 4 (connect report to a spreadsheet: read access)",
    level: "MUST",
    title: "A caller with only read access to a report can place it in a spreadsheet: the read-only key, and the viewer where it reads the report",
    needs: [...WRITES, "token:readOnly"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const doc = await documented(ctx);
      // The read-only key's report sits in a folder it reads and cannot edit, where one is found; the viewer's needs none.
      const folderId = await readOnlyFolder(ctx, dep).then(
        (f) => f.id,
        (err) => {
          if (err instanceof NotExercised || err instanceof NotVerifiable) return undefined;
          throw err;
        },
      );
      const own = folderId === undefined ? undefined : await ownReport(ctx, doc, dep, ctx.scratch.name("read-only"), folderId);
      // Read access is the rule's whole condition, whatever the role: a server once refused the viewer (a role check copied from the clone's).
      const readers: [string, Api, number][] = own ? [["the read-only caller", ctx.as("readOnly"), own.id]] : [];
      const viewer = ctx.callers().find((c) => c.role === "viewer")?.api;
      if (viewer) {
        // The viewer's report: the read-only folder's where it reads that, else one in a folder of the run's, which a viewer reads and cannot edit.
        const shared = own && folderId !== undefined && (await listsReport(viewer, dep, folderId, own.id));
        const fresh = shared ? undefined : (await createFolder(ctx, dep)).id;
        const viewers = fresh === undefined ? own! : await ownReport(ctx, doc, dep, ctx.scratch.name("viewer"), fresh);
        if (fresh === undefined || (await listsReport(viewer, dep, fresh, viewers.id)))
          readers.push(["the viewer, which reads the report", viewer, viewers.id]);
      }
      if (!readers.length)
        throw new NotExercised(
          "no caller with read access only was found: no folder the readOnly token reads but cannot edit (set fixtures.readOnlyFolderId), and no viewer token that reads a report of the run's",
        );
      for (const [who, as, reportId] of readers) {
        const res = await place(ctx, doc, dep, reportId, ctx.scratch.slug("sheet"), as);
        ctx.requireRoute(res, "E14", "placing a report in a spreadsheet");
        ctx.expect.that(res.status >= 200 && res.status < 300, `${who}: its placement is accepted`, {
          expected: "2xx",
          got: `${res.status} ${res.text.slice(0, 160)}`,
          res,
          reason: "read-suffices",
        });
      }
    },
  },
  {
    id: "reports.list.folder-filter",
    spec: "E14 rule 5",
    level: "MUST",
    title: "folderId lists the reports of that folder, and only those, in the list's own order and sorted by each sortBy value",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const folder = await createFolder(ctx, dep);
      const own = await ownReport(ctx, await documented(ctx), dep, ctx.scratch.name("in-folder"), folder.id);
      if (field(own, "folderId") !== folder.id)
        throw new NotVerifiable(`the report created with folderId ${folder.id} shows folderId ${JSON.stringify(field(own, "folderId"))}`);
      for (const { label, res, items } of await onEveryReadPath(ctx, dep, { folderId: folder.id })) {
        ctx.expect.that(
          items.some((r) => r?.id === own.id),
          `the folder's report is listed, ${label}`,
          { expected: `report ${own.id}`, got: items.map((r) => r?.id), res, reason: "match-listed" },
        );
        ctx.expect.equal(
          items.filter((r) => "folderId" in r && r.folderId !== folder.id).map((r) => r.id),
          [],
          `no report of another folder is listed, ${label}`,
          { res, reason: "only-matches" },
        );
      }
    },
  },
  {
    id: "reports.list.filters-combined",
    spec: "E14 rule 5",
    level: "MUST",
    title:
      "folderId and search given together both hold, in the list's own order and sorted by each sortBy value: the folder's report with the term is listed; the same term's report in another folder is not",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const doc = await documented(ctx);
      const folder = await createFolder(ctx, dep);
      const term = ctx.scratch.name("both");
      const inside = await ownReport(ctx, doc, dep, `${term} inside`, folder.id);
      if (field(inside, "folderId") !== folder.id)
        throw new NotVerifiable(`the report created with folderId ${folder.id} shows folderId ${JSON.stringify(field(inside, "folderId"))}`);
      // The same term, at the root: what search alone lists and folderId must take away.
      const outside = await ownReport(ctx, doc, dep, `${term} outside`);
      for (const { label, res, items } of await onEveryReadPath(ctx, dep, { folderId: folder.id, search: term })) {
        ctx.expect.that(
          items.some((r) => r?.id === inside.id),
          `the folder's report holding the term is listed, ${label}`,
          { expected: `report ${inside.id}`, got: items.map((r) => r?.id), res, reason: "match-listed" },
        );
        ctx.expect.equal(
          items.filter((r) => r?.id === outside.id || ("folderId" in r && r.folderId !== folder.id)).map((r) => r?.id),
          [],
          `no report outside folder ${folder.id} is listed, though report ${outside.id} holds the term, ${label}`,
          { res, reason: "only-matches" },
        );
      }
    },
  },
  {
    id: "reports.list.sorted-by-dates",
    spec: "E14 rule 5",
    level: "MUST",
    title: "sortBy=createdAt, updatedAt and lastViewedAt each list reports in the order of that timestamp (either direction; reports without one anywhere)",
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const doc = await documented(ctx);
      const tag = ctx.scratch.slug("dated");
      // Created out of name order and a little apart, so that no timestamp order is the name order, nor a tie.
      const made: any[] = [];
      for (const letter of ["b", "c", "a"]) {
        made.push(await ownReport(ctx, doc, dep, `${tag}-${letter}`));
        await pause(15);
      }
      // The first made is then renamed: updated last, its updatedAt order is no longer the createdAt order
      // (a server that sorts updatedAt by createdAt lists the same order for both until a report changes).
      const publicId = field(made[0], "publicId");
      if (typeof publicId === "string") {
        const op = doc.requireNamed("upsertReportByPublicId", "updates a report of the run's own");
        const renamed = op.body({ "name|title": `${tag}-b-renamed` });
        setup(ctx, await ctx.api.call("upsertReportByPublicId", { deploymentId: dep, publicId }, { body: renamed }), `renaming report ${made[0].id}`);
      }
      let judged = 0;
      for (const sortBy of DATE_SORTS) {
        // The run's reports are never viewed: lastViewedAt is judged over the whole list, where others may
        // have been, and on the one page the server gives: E14 makes no cursor available with that sort.
        const { res, items } = sortBy === "lastViewedAt" ? await onePage(ctx, dep, { sortBy }) : await listReports(ctx, dep, { sortBy, search: tag });
        const times = items
          .map((r) => field(r, sortBy))
          .filter((v) => typeof v === "string")
          .map((v) => Date.parse(v))
          .filter((t) => !Number.isNaN(t));
        if (new Set(times).size < 2) continue;
        judged++;
        ctx.expect.that(inOneDirection(times), `sortBy=${sortBy} lists the reports in ${sortBy} order`, {
          expected: `${sortBy} ascending or descending`,
          got: items.map((r) => `${r?.id}: ${field(r, sortBy)}`).slice(0, 20),
          res,
          reason: `sorted:${sortBy}`,
        });
      }
      if (!judged) throw new NotExercised(`no list sorted by ${DATE_SORTS.join(", ")} showed two reports with distinct timestamps of that name`);
    },
  },
]);

/** A page of one report sorted by lastViewedAt, and the cursor it offers to go on from (none where first is refused with that sort). */
async function lastViewedCursorOffer(ctx: CheckContext): Promise<{ dep: string; cursor?: string; res?: Response }> {
  const dep = ctx.fixture("deployment").id;
  (await documented(ctx)).requireNamed("listReports", "lists reports");
  const whole = await ctx.api.call("listReports", { deploymentId: dep }, { query: { sortBy: "lastViewedAt" } });
  ctx.expect.status(whole, 200, "sortBy=lastViewedAt is accepted", "sort-by-accepted");
  const all = records(ctx, whole, "the reports sorted by lastViewedAt");
  if (all.length < 2) throw new NotExercised(`the reports list holds ${all.length} report(s): a page of one could not have a next one`);
  const res = await ctx.api.call("listReports", { deploymentId: dep }, { query: { sortBy: "lastViewedAt", first: 1 } });
  if (res.status >= 400 && res.status < 500) return { dep, res }; // first refused with this sort: no cursor either
  // E14: the shape is the server's; a page of a cursor list carries pageInfo where the published docs put it.
  const pageInfo = (ctx.expect.json(res) as { pageInfo?: { hasNextPage?: unknown; endCursor?: unknown } } | null | undefined)?.pageInfo;
  const cursor = pageInfo?.hasNextPage === true && typeof pageInfo.endCursor === "string" && pageInfo.endCursor !== "" ? pageInfo.endCursor : undefined;
  return { dep, cursor, res };
}
