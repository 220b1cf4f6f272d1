import type { Check } from "../../core/check/check.js";
import { authChecks } from "./examples.js";

/** The auth group: its examples, properties, negative data and model runs side by side. */
export const authSuite: Check[] = [...authChecks];
