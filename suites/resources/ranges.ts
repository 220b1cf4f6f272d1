import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Where the stated rules the resources checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const resourcesRanges: RangeCells = {
  "Limits: app entries stored": [{ where: "every Workbook answer (schema)", checks: ["resources.schema.every-answer"] }],
  "Resources / Workbook": [
    { where: "E8 items and data, every page", checks: ["resources.schema.every-answer"] },
    { where: "E9", checks: ["resources.schema.every-answer"] },
    { where: "E10 answer", checks: ["resources.schema.every-answer"] },
    { where: "E11 answer", checks: ["resources.schema.every-answer"] },
    { where: "E12 moved", checks: ["resources.schema.every-answer"] },
  ],
};
