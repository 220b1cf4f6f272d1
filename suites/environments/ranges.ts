import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Where the stated rules the environments checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const environmentsRanges: RangeCells = {
  "Pagination styles 1": [{ where: "E2 deprecated data, any limit, every page", checks: ["environments.legacy.any-limit", "environments.legacy.consistent"] }],
  "Pagination styles 2": [{ where: "E2 items, any first, every page", checks: ["environments.cursor.first-caps-page", "environments.cursor.complete"] }],
  E2: [
    { where: "the whole list (each type)", checks: ["environments.filter.only-that-type", "environments.filter.all-of-that-type"] },
    { where: "items, first/after, every page", checks: ["environments.filter.every-page"] },
    { where: "deprecated data, offset/limit, every page", checks: ["environments.filter.every-page"] },
  ],
};
