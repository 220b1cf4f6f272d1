import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Where the stated rules the deployments checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const deploymentsRanges: RangeCells = {
  "Pagination styles 1": [
    { where: "E1, limit=1, every page", checks: ["deployments.list.limit-honoured", "deployments.list.total-consistent"] },
    { where: "E1, any limit from 1 to n+2, every page", checks: ["deployments.list.any-limit"] },
    { where: "E1, default limit 20", checks: ["deployments.list.defaults"] },
  ],
};
