import type { Check } from "../../core/check/check.js";
import { userChecks } from "./examples.js";
import { userDeletedChecks } from "./deleted.js";

/** The users group (E14 rules 6 and 11): its examples and the read-back of a deleted user. */
export const usersSuite: Check[] = [...userChecks, ...userDeletedChecks];
