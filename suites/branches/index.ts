import type { Check } from "../../core/check/check.js";
import { branchChecks } from "./examples.js";
import { branchNameChecks } from "./negative.js";

/** The branches group (E14 rules 4 and 11): its examples, then the delete over the domain of branchName. */
export const branchesSuite: Check[] = [...branchChecks, ...branchNameChecks];
