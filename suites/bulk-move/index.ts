import type { Check } from "../../core/model/check.js";
import { bulkMoveChecks } from "./examples.js";
import { bulkMovePropertyChecks } from "./properties.js";

/** The bulk-move group: its examples, properties, negative data and model runs side by side. */
export const bulkMoveSuite: Check[] = [...bulkMoveChecks, ...bulkMovePropertyChecks];
