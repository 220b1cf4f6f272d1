import type { Check } from "../../core/check/check.js";
import { bulkMoveAppliedChecks } from "./applied.js";
import { bulkMoveItemFailureChecks } from "./item-failures.js";
import { bulkMoveRequestChecks } from "./request-bounds.js";
import { bulkMoveMixedKindsChecks } from "./mixed-kinds.js";
import { bulkMoveDestinationChecks } from "./destinations.js";
import { bulkMovePropertyChecks } from "./properties.js";
import { bulkMoveAccessChecks } from "./access-mixed.js";

/** The bulk-move group: its examples by rule family (in the catalogue's order), then its properties. */
export const bulkMoveSuite: Check[] = [
  ...bulkMoveAppliedChecks,
  ...bulkMoveItemFailureChecks,
  ...bulkMoveRequestChecks,
  ...bulkMoveMixedKindsChecks,
  ...bulkMoveDestinationChecks,
  ...bulkMoveAccessChecks,
  ...bulkMovePropertyChecks,
];
