import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Where the stated rules the staging checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const stagingRanges: RangeCells = {
  "Errors 2": [
    { where: "E4, a personal or the production branch (4xx)", checks: ["staging.reject.personal-branch", "staging.reject.production-branch"] },
    { where: "E4, no branch named (4xx)", checks: ["staging.request.branch-required"] },
  ],
};
