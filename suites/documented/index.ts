import type { Check } from "../../core/model/check.js";
import { documentedChecks } from "./examples.js";

/** The documented group: its examples, properties, negative data and model runs side by side. */
export const documentedSuite: Check[] = [...documentedChecks];
