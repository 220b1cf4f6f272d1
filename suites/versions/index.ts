import type { Check } from "../../core/check/check.js";
import { versionChecks } from "./examples.js";

/** The versions group: its examples, properties, negative data and model runs side by side. */
export const versionsSuite: Check[] = [...versionChecks];
