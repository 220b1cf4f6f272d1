import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Where the stated rules the clone checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const cloneRanges: RangeCells = {
  "Authentication 4": [
    { where: "E10, caller with read access only (placement)", checks: ["clone.placement.read-only-to-root"] },
    { where: "E10 shared, non-creator caller", checks: ["clone.shared.non-creator-403"] },
  ],
  "Resources / Workbook": [{ where: "E10 answer", checks: ["clone.answer.is-the-stored-clone"] }],
  "Errors 2": [{ where: "E10, the plan's workbook limit (400)", checks: ["clone.limit.reached-400"] }],
};
