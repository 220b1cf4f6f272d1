import { SPECIFIED_OPERATIONS } from "../../core/api/operations.js";
import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Every spec'd operation but E1 (its cell also names the prefixes): Authentication 1 holds on each. */
const OPERATIONS_BUT_E1 = [...new Set(SPECIFIED_OPERATIONS.map((o) => o.section))].filter((e) => e !== "E1");

/** Where the stated rules the auth checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const authRanges: RangeCells = {
  "Authentication 1": [
    { where: "E1 and the branches list (/build/api/v1)", checks: ["auth.reject.every-operation", "auth.key.both-prefixes"] },
    ...OPERATIONS_BUT_E1.map((e) => ({ where: e, checks: ["auth.reject.every-operation" as const] })),
  ],
};
