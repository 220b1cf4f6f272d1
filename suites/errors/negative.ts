import { groupedById } from "../../core/check/check.js";
import { bulkMoveStage, bulkMoveTyped } from "../lib/bulk-move-stage.js";
import { envVarStage } from "../lib/env-vars-stage.js";
import { DEFAULT_REQUEST_BUDGET } from "../../core/run/property.js";
import { everything, negative } from "../lib/negative-check.js";

export const errorNegativeChecks = groupedById([
  negative({
    id: "errors.negative.implied-rules",
    spec: "E12 (items of {type, id}, up to 100), Limits; PUT env-vars (E14, body in the platform's documentation)",
    level: "SHOULD",
    title:
      "Bodies that break what the spec only implies (a malformed E12 entry or more than 100 of them, a missing items, a bad PUT env-vars entry or the [ENCRYPTED] placeholder) are rejected with a 4xx and change nothing",
    // PUT env-vars sets variables that cannot be removed, should a server take a bad body.
    needs: ["writes", "unremovable-writes", "fixture:deployment"],
    parts: [
      { endpoint: "E12", stage: bulkMoveStage, select: (b) => !bulkMoveTyped(b) },
      { endpoint: "PUT env-vars", stage: envVarStage, select: everything },
    ],
    // Its cases spread over two endpoints and many kinds of break, a loosely read item type among
    // them (a fault found in 4 of 5 seeds within the default budget): half as much again.
    maxRequests: 1.5 * DEFAULT_REQUEST_BUDGET,
  }),
]);
