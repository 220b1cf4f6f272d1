import { type Check, group } from "../../core/check/check.js";
import { envVarChecks } from "./examples.js";
import { envVarPropertyChecks } from "./properties.js";
import { secretMasking } from "./secrets.js";
import { envVarConcurrencyChecks } from "./concurrency.js";
import { envVarNameChecks } from "./name-pattern.js";
import { envVarValueChecks } from "./values.js";

/** The env-vars group: its examples, properties, negative data and model runs side by side, then the invariant over every answer (core/run/invariants.ts). */
export const envVarsSuite: Check[] = [
  ...envVarChecks,
  ...envVarNameChecks,
  ...envVarValueChecks,
  ...envVarConcurrencyChecks,
  ...envVarPropertyChecks,
  ...group("env-vars", [secretMasking]),
];
