import type { Check } from "../../core/check/check.js";
import { stagingChecks } from "./examples.js";
import { stagingNegativeChecks } from "./negative.js";
import { stagingIdleChecks } from "./idle.js";

/** The staging group: its examples, properties, negative data and model runs side by side; the idle wait last. */
export const stagingSuite: Check[] = [...stagingChecks, ...stagingNegativeChecks, ...stagingIdleChecks];
