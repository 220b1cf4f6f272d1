import { groupedById, type Need } from "../../core/check/check.js";
import { tokenStage } from "./negative-stage.js";
import { negative } from "../lib/negative-check.js";

const TOKEN_NEEDS: Need[] = ["writes", "fixture:deployment", "fixture:environment"];

export const tokenNegativeChecks = groupedById([
  negative({
    id: "tokens.negative.broken-body",
    spec: "E3 (security_context: object, required; expires_in: number); Errors 2 (no status named)",
    level: "MUST",
    title:
      "Any E3 body whose security_context is missing or not an object, or whose expires_in is not a number, or that is not JSON, issues no token and is no server error",
    needs: TOKEN_NEEDS,
    judged: "not-applied",
    independent: true,
    parts: [{ endpoint: "E3", stage: tokenStage, select: (b) => b.kind !== "out-of-range" }],
  }),
  negative({
    id: "tokens.negative.broken-body-4xx",
    spec: "E3 (security_context: object, required; expires_in: number)",
    // SHOULD: the spec names no status for a broken E3 body.
    level: "SHOULD",
    title: "Any E3 body whose security_context is missing or not an object, or whose expires_in is not a number, or that is not JSON, is rejected with a 4xx",
    needs: TOKEN_NEEDS,
    independent: true,
    parts: [{ endpoint: "E3", stage: tokenStage, select: (b) => b.kind !== "out-of-range" }],
  }),
  negative({
    id: "tokens.negative.non-positive-lifetime",
    spec: "E3 (expires_in: seconds)",
    level: "SHOULD",
    title: "Any E3 body whose expires_in is zero or negative is rejected with a 4xx",
    needs: TOKEN_NEEDS,
    independent: true,
    parts: [{ endpoint: "E3", stage: tokenStage, select: (b) => b.kind === "out-of-range" }],
  }),
]);
