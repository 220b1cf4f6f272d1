import type { Check } from "../../core/check/check.js";
import { userAttributeChecks } from "./examples.js";

/** The user-attributes group (E14 rules 7 and 11): its examples. */
export const userAttributesSuite: Check[] = [...userAttributeChecks];
