import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Where the stated rules the pagination checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const paginationRanges: RangeCells = {
  "Pagination styles 2": [
    { where: "E2 items, any first, every page", checks: ["pagination.cursor.any-page-size"] },
    { where: "E8 items, any first, every page", checks: ["pagination.cursor.any-page-size"] },
    { where: "E13 items, any first, every page", checks: ["pagination.cursor.any-page-size"] },
    { where: "E2, E8 and E13 deprecated fields, every answer after the first that carried one", checks: ["pagination.legacy.kept-per-server"] },
    {
      where:
        "E14 lists' deprecated fields (every answer with a cursor: branches, files, regions, user attributes, folders, reports, users, groups), every answer after the first that carried one",
      checks: ["pagination.legacy.kept-per-server"],
    },
  ],
  "Limits: at and past each": [
    { where: "first=1, the minimum: E2, E8, E13 walked to the end", checks: ["pagination.cursor.any-page-size"] },
    {
      where: "first=0 and -1, below the minimum: E2, E8, E13 and each E14 cursor list the server documents",
      checks: ["pagination.cursor.first-below-minimum-rejected"],
    },
  ],
};
