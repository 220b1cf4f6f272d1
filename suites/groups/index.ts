import type { Check } from "../../core/check/check.js";
import { groupChecks } from "./examples.js";

/** The groups group (E14 rule 11): its examples. */
export const groupsSuite: Check[] = [...groupChecks];
