import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Where the stated rules the users checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const usersRanges: RangeCells = {
  "E14 rule 6": [
    { where: "an unknown user", checks: ["users.bulk.per-user-failures"] },
    { where: "a caller that may not act (refused, user unchanged)", checks: ["users.bulk.forbidden-not-applied"] },
    { where: "a duplicate user", checks: ["users.bulk.duplicate-once"] },
  ],
  "Errors 2": [{ where: "bulk user actions (E14), a caller that may not act", checks: ["users.bulk.forbidden-not-applied"] }],
};
