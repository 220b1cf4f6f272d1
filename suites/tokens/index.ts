import type { Check } from "../../core/check/check.js";
import { tokenChecks } from "./examples.js";
import { tokenPropertyChecks } from "./properties.js";
import { tokenNegativeChecks } from "./negative.js";

/** The tokens group: its examples, properties, negative data and model runs side by side. */
export const tokensSuite: Check[] = [...tokenChecks, ...tokenPropertyChecks, ...tokenNegativeChecks];
