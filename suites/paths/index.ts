import type { Check } from "../../core/check/check.js";
import { pathChecks } from "./examples.js";

/** The paths group: the paths the spec's tables write, asked as written. */
export const pathsSuite: Check[] = [...pathChecks];
