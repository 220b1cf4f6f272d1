import type { Check } from "../../core/check/check.js";
import { regionChecks } from "./examples.js";

/** The regions group (E14 rule 11): its examples. */
export const regionsSuite: Check[] = [...regionChecks];
