import type { Check } from "../../core/check/check.js";
import { policyChecks } from "./examples.js";

/** The policies group (Authentication 5): its examples. */
export const policiesSuite: Check[] = [...policyChecks];
