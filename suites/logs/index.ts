import type { Check } from "../../core/check/check.js";
import { logChecks } from "./examples.js";
import { serverContainerChecks } from "./server-container.js";

/** The logs group (E14 rule 9): its examples. */
export const logsSuite: Check[] = [...logChecks, ...serverContainerChecks];
