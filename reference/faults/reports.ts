import { HttpError, ok, type Fault } from "../http.js";
import { SORT_BYS } from "../routes/e14/reports.js";
import { accessTo, atLeast } from "../access.js";
import { e14 } from "../e14/state.js";

/** The faults of the group reports (suites/reports/): each makes a check of it fail, for the reason its `because` names. */
export const reportsFaults: Fault[] = [
  {
    name: "reports-sort-by-enum-lookup-crashes",
    breaks: "E14 rule 5 (sortBy among createdAt, updatedAt, lastViewedAt, name); Errors 2",
    description: "sortBy is looked up as an enum constant without a guard: a value that differs from a stated one by case (CreatedAt) answers 500",
    because: { "reports.list.sort-by-values": "no-5xx" },
    operations: ["listReports"],
    handle: ({ req, next }) => {
      const sortBy = req.query.get("sortBy");
      if (sortBy && !SORT_BYS.includes(sortBy) && SORT_BYS.some((s) => s.toLowerCase() === sortBy.toLowerCase()))
        throw new HttpError(500, "No enum constant SortBy." + sortBy);
      return next();
    },
  },
  {
    name: "reports-last-viewed-ignores-filters",
    breaks: "E14 rule 5 (reports accept folderId, externalWorkbookId, search, sortBy; no cursor when sorting by lastViewedAt)",
    description:
      "sorted by lastViewedAt, the reports list takes the path without a cursor, which forgets the filters: folderId, externalWorkbookId and search are ignored there and every report is listed",
    because: {
      "reports.list.search-filter": "only-matches",
      "reports.list.external-workbook-filter": "only-matches",
      "reports.list.folder-filter": "only-matches",
      "reports.list.filters-combined": "only-matches",
    },
    operations: ["listReports"],
    handle: ({ req, next }) => {
      if (req.query.get("sortBy") === "lastViewedAt") for (const f of ["folderId", "externalWorkbookId", "search"]) req.query.delete(f);
      return next();
    },
  },
  {
    name: "placement-refresh-by-address-missing",
    breaks: "E14 rule 13 (placement address)",
    description: "a refresh finds a placement by its placementId only; by externalWorkbookId, sheetName and anchorCell it answers 404",
    because: { "reports.placement.addressing": "refresh-by-address" },
    operations: ["refreshReport"],
    handle: ({ req, next }) => {
      if (!req.body?.placementId) throw new HttpError(404, "no such placement of this report");
      return next();
    },
  },
  {
    name: "placement-remove-by-id-ignored",
    breaks: "E14 rule 13 (placement removal)",
    description: "removing a placement by its placementId answers 200 and keeps it",
    because: { "reports.placement.addressing": "placement-removed" },
    operations: ["disconnectReportWorkbook"],
    handle: ({ req, next }) => {
      const id = req.query.get("placementId");
      if (id) return ok({ deleted: id });
      return next();
    },
  },
  {
    name: "placement-remove-by-address-whole-sheet",
    breaks: "E14 rule 13 (placement removal by address)",
    description: "removing a placement by its address removes every placement of the report in that sheet: anchorCell is not read",
    because: { "reports.placement.remove-by-address": "other-placement-kept" },
    operations: ["disconnectReportWorkbook"],
    handle: ({ req, app, next }) => {
      const [book, sheet] = [req.query.get("externalWorkbookId"), req.query.get("sheetName")];
      if (req.query.get("placementId") || !book || !sheet) return next();
      const placements = e14(app.store).placements;
      const same = [...placements.values()].filter((p) => String(p.reportId) === req.params.reportId && p.externalWorkbookId === book && p.sheetName === sheet);
      if (!same.length) return next();
      for (const p of same) placements.delete(p.placementId);
      return ok({ deleted: same.map((p) => p.placementId) });
    },
  },
  {
    name: "placement-remove-by-address-ignored",
    breaks: "E14 rule 13 (placement removal by address)",
    description: "removing a placement by externalWorkbookId, sheetName and anchorCell answers 200 and keeps it (by placementId it is removed)",
    because: { "reports.placement.remove-by-address": "placement-removed" },
    operations: ["disconnectReportWorkbook"],
    handle: ({ req, next }) => (req.query.get("placementId") ? next() : ok({ deleted: null })),
  },
  {
    name: "reports-sort-by-last-viewed-refused",
    breaks: "E14 rule 5 (sortBy values)",
    description: "the reports list refuses sortBy=lastViewedAt with a 400",
    because: { "reports.list.sort-by-values": "sort-by-accepted" },
    operations: ["listReports"],
    handle: ({ req, next }) => {
      const left = SORT_BYS.filter((s) => s !== "lastViewedAt");
      if (req.query.get("sortBy") === "lastViewedAt") throw new HttpError(400, `sortBy must be one of ${left.join(", ")}`);
      return next();
    },
  },
  {
    name: "reports-name-sort-ignored",
    breaks: "E14 rule 5 (sortBy name)",
    description: "sortBy=name is accepted but the reports come in creation order",
    because: { "reports.list.sorted-by-name": "sorted" },
    behaviour: { reportSortValue: (r, sortBy) => (sortBy === "name" ? r.createdAt : ((r as any)[sortBy] ?? "")) },
  },
  {
    name: "reports-last-viewed-cursor",
    breaks: "E14 rule 5 (no cursor with lastViewedAt)",
    description: "sorted by lastViewedAt, the reports list still pages with a cursor",
    because: { "reports.list.last-viewed-no-cursor": "no-cursor", "reports.list.last-viewed-no-cursor-offered": "cursor-offered" },
    behaviour: { cursorWhenSortedByLastViewed: () => true },
  },
  {
    name: "search-ignored",
    breaks: "E14 rule 5 (search); E14 rule 6 (users search); E14 rule 11 (search on users and groups)",
    description: "the search query of the reports, users and groups lists is accepted and ignored",
    because: { "reports.list.search-filter": "only-matches", "users.list.search": "only-matches", "groups.list.search": "only-matches" },
    behaviour: { searchMatches: () => true },
  },
  {
    name: "reports-folder-filter-ignored",
    breaks: "E14 rule 5 (folderId filter)",
    description: "the folderId filter of the reports list is accepted and ignored",
    because: { "reports.list.folder-filter": "only-matches" },
    behaviour: { reportInFolder: () => true },
  },
  {
    name: "reports-folder-filter-ignored-beside-search",
    breaks: "E14 rule 5 (folderId and search)",
    description: "the folderId filter of the reports list is ignored when search is given too (each alone holds)",
    because: { "reports.list.filters-combined": "only-matches" },
    operations: ["listReports"],
    handle: ({ req, next }) => {
      if (req.query.get("search") && req.query.has("folderId")) req.query.delete("folderId");
      return next();
    },
  },
  {
    name: "reports-external-workbook-filter-ignored",
    breaks: "E14 rule 5 (externalWorkbookId filter)",
    description: "the externalWorkbookId filter of the reports list is accepted and ignored",
    because: { "reports.list.external-workbook-filter": "only-matches" },
    behaviour: { reportInExternalWorkbook: () => true },
  },
  {
    name: "placement-needs-edit-access",
    breaks: "Authentication 4 (connect report: read access)",
    description: "placing a report in a spreadsheet needs edit access to the report",
    because: { "reports.placement.read-access-suffices": "read-suffices" },
    operations: ["connectReportWorkbook", "disconnectReportWorkbook", "refreshReport"],
    handle: ({ req, app, next }) => {
      const r = app.store.items.get(Number(req.params.reportId));
      const access = r?.type === "REPORT" && String(r.deploymentId) === req.params.deploymentId ? accessTo(app.store, req.user, r) : undefined;
      if (access && atLeast(access, "read") && !atLeast(access, "edit")) throw new HttpError(403, "edit access to the report is required");
      return next();
    },
  },
  {
    name: "placement-needs-ai-bi-user",
    breaks: "Authentication 4 (connect report: read access)",
    description:
      "placing a report in a spreadsheet also needs the AI BI User role (a role check copied from the clone's): a viewer that reads the report is refused 403",
    because: { "reports.placement.read-access-suffices": "read-suffices" },
    operations: ["connectReportWorkbook"],
    handle: ({ req, next }) => {
      if (!req.user.aiBiUser) throw new HttpError(403, "the AI BI User role or higher is required");
      return next();
    },
  },
  {
    name: "reports-updated-at-sort-by-created",
    breaks: "E14 rule 5 (sortBy updatedAt)",
    description: "sortBy=updatedAt orders the reports by createdAt: the same order until a report is updated",
    because: { "reports.list.sorted-by-dates": "sorted:updatedAt" },
    behaviour: { reportSortValue: (r, sortBy) => (sortBy === "updatedAt" ? r.createdAt : ((r as any)[sortBy] ?? "")) },
  },
  ...["createdAt", "updatedAt", "lastViewedAt"].map(
    (date): Fault => ({
      name: `reports-${date}-sort-by-name`,
      breaks: `E14 rule 5 (sortBy ${date})`,
      description: `sortBy=${date} is accepted but the reports come in name order (the other sortBy values order right)`,
      because: { "reports.list.sorted-by-dates": `sorted:${date}` },
      behaviour: { reportSortValue: (r, sortBy) => (sortBy === date ? r.name : ((r as any)[sortBy] ?? "")) },
    }),
  ),
  {
    name: "reports-sorted-cursor-by-id",
    breaks: "E14 rule 5 (sortBy name and updatedAt, with a cursor); Pagination styles 2",
    description:
      "sorted by name or updatedAt, the reports list pages with a keyset cursor on the id: the page after a cursor holds the reports of a higher id, in name order, so a walk skips some",
    because: { "reports.list.sorted-cursor-walk": "missing" },
    operations: ["listReports"],
    handle: async ({ req, next }) => {
      const sortBy = req.query.get("sortBy");
      const first = Number(req.query.get("first"));
      if ((sortBy !== "name" && sortBy !== "updatedAt") || !Number.isInteger(first) || first < 1) return next();
      const after = req.query.get("after");
      const lastId = after ? Number(Buffer.from(after, "base64url").toString("utf8").replace(/^id:/, "")) : -Infinity;
      req.query.delete("after");
      req.query.delete("first");
      const whole = await next();
      const body = whole.body as { items: { id: number }[] };
      if (whole.status !== 200 || !Array.isArray(body?.items)) return whole;
      const left = body.items.filter((r) => r.id > lastId);
      const items = left.slice(0, first);
      const end = items.length ? Buffer.from(`id:${Math.max(...items.map((r) => r.id))}`).toString("base64url") : null;
      const pageInfo = { hasNextPage: left.length > first, hasPreviousPage: !!after, startCursor: null, endCursor: end };
      return { ...whole, body: { ...body, items, data: items, pageInfo } };
    },
  },
  {
    name: "report-upsert-by-public-id-always-creates",
    breaks: "E14 (PUT .../reports/by-public-id/{publicId}: create or update)",
    description: "a PUT to a publicId that a report already has creates another report with the same publicId, and leaves the first as it was",
    because: { "reports.upsert.same-public-id-updates": "same-report-id" },
    operations: ["upsertReportByPublicId"],
    handle: async ({ req, app, next }) => {
      // The one that holds the publicId is hidden from the handler while it runs: it creates.
      const held = [...e14(app.store).reportExtras.values()].filter((x) => x.publicId === req.params.publicId);
      for (const x of held) x.publicId = `${x.publicId}~hidden`;
      try {
        return await next();
      } finally {
        for (const x of held) x.publicId = req.params.publicId;
      }
    },
  },
];
