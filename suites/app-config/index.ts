import type { Check } from "../../core/check/check.js";
import { appConfigChecks } from "./examples.js";

/** The app-config group (E14): its examples. */
export const appConfigSuite: Check[] = [...appConfigChecks];
