import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Where the stated rules the tokens checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const tokensRanges: RangeCells = {
  "Authentication 3": [
    { where: "E1", checks: ["tokens.auth.not-an-api-key"] },
    { where: "E2", checks: ["tokens.auth.not-an-api-key"] },
    { where: "E5", checks: ["tokens.auth.not-an-api-key"] },
    { where: "E8", checks: ["tokens.auth.not-an-api-key"] },
    { where: "E9", checks: ["tokens.auth.not-an-api-key"] },
    { where: "E13", checks: ["tokens.auth.not-an-api-key"] },
  ],
};
