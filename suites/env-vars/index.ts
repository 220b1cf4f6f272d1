import type { Check } from "../../core/model/check.js";
import { envVarChecks } from "./examples.js";
import { envVarPropertyChecks } from "./properties.js";

/** The env-vars group: its examples, properties, negative data and model runs side by side. */
export const envVarsSuite: Check[] = [...envVarChecks, ...envVarPropertyChecks];
