import type { Check } from "../../core/check/check.js";
import { branchChecks } from "./examples.js";

/** The branches group (E14 rules 4 and 11): its examples. */
export const branchesSuite: Check[] = [...branchChecks];
