import type { Check } from "../../core/check/check.js";
import { reportListChecks } from "./list.js";
import { reportPlacementChecks } from "./placement.js";
import { reportWalkChecks } from "./walks.js";

/** The reports group (E14 rules 5 and 13, Authentication 4): the list's sorts and filters, then placement by cell and by id. */
export const reportsSuite: Check[] = [...reportListChecks, ...reportWalkChecks, ...reportPlacementChecks];
