import { groupedById } from "../../core/check/check.js";
import { stagingStage } from "./negative-stage.js";
import { everything, negative } from "../lib/negative-check.js";

export const stagingNegativeChecks = groupedById([
  negative({
    id: "staging.negative.broken-body",
    spec: "E4 (enabled: boolean, required; branchName: string or branchId: integer, one of them); Errors 5 (no status named)",
    level: "MUST",
    title:
      "Any E4 body with enabled missing or not a boolean, a branchName or branchId of the wrong type, neither of them, or no JSON, leaves the staging flag as it was and is no server error",
    needs: ["writes", "fixture:deployment", "fixture:sharedBranch"],
    judged: "not-applied",
    parts: [{ endpoint: "E4", stage: stagingStage, select: everything }],
  }),
  negative({
    id: "staging.negative.broken-body-4xx",
    spec: "E4 (enabled: boolean, required; branchName: string or branchId: integer, one of them)",
    // SHOULD: the spec names no status for a broken E4 body.
    level: "SHOULD",
    title: "Any E4 body with enabled missing or not a boolean, a branchName or branchId of the wrong type, neither of them, or no JSON, is rejected with a 4xx",
    needs: ["writes", "fixture:deployment", "fixture:sharedBranch"],
    parts: [{ endpoint: "E4", stage: stagingStage, select: everything }],
  }),
]);
