import type { Check } from "../../core/check/check.js";
import { specChecks } from "./examples.js";

/** The spec group: its examples, properties, negative data and model runs side by side. */
export const specSuite: Check[] = [...specChecks];
