import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Where the stated rules the model checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const modelRanges: RangeCells = {
  E8: [{ where: "after moves and clones (generated sequences)", checks: ["model.workspace.sequence"] }],
};
