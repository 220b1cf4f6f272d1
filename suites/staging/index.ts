import type { Check } from "../../core/check/check.js";
import { stagingChecks } from "./examples.js";
import { stagingNegativeChecks } from "./negative.js";

/** The staging group: its examples, properties, negative data and model runs side by side. */
export const stagingSuite: Check[] = [...stagingChecks, ...stagingNegativeChecks];
