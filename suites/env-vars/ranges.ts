import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Where the stated rules the env-vars checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const envVarsRanges: RangeCells = {
  "Pagination styles 2": [
    { where: "E13 items, any first, every page", checks: ["env-vars.cursor.complete"] },
    { where: "E8 and E13 deprecated data, every page", checks: ["env-vars.legacy.data-matches-items"] },
  ],
  "Resources / Environment variable": [
    { where: "E13 items, every page", checks: ["env-vars.mask.every-answer"] },
    { where: "E13 deprecated data, every page", checks: ["env-vars.mask.every-answer"] },
    { where: "PUT env-vars answer (items and data)", checks: ["env-vars.mask.any-upper-case-marker", "env-vars.mask.every-answer"] },
    { where: "deployment settings (E14)", checks: ["env-vars.mask.every-answer"] },
  ],
};
