import type { Check } from "../../core/check/check.js";
import { userChecks } from "./examples.js";

/** The users group (E14 rules 6 and 11): its examples. */
export const usersSuite: Check[] = [...userChecks];
