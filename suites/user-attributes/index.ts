import type { Check } from "../../core/check/check.js";
import { userAttributeChecks } from "./examples.js";
import { attributeValueChecks } from "./values.js";

/** The user-attributes group (E14 rules 7 and 11): its examples, and the values a user holds. */
export const userAttributesSuite: Check[] = [...userAttributeChecks, ...attributeValueChecks];
