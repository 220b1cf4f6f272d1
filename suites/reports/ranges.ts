import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Where the stated rules the reports checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const reportsRanges: RangeCells = {
  "E14 rule 5": [
    { where: "sortBy=name", checks: ["reports.list.sorted-by-name"] },
    { where: "sortBy=createdAt, updatedAt, lastViewedAt", checks: ["reports.list.sorted-by-dates"] },
    { where: "folderId", checks: ["reports.list.folder-filter"] },
    { where: "externalWorkbookId", checks: ["reports.list.external-workbook-filter"] },
    { where: "search", checks: ["reports.list.search-filter"] },
  ],
};
