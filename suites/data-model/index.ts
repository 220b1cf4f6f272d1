import type { Check } from "../../core/check/check.js";
import { dataModelChecks } from "./examples.js";
import { dataModelParameterChecks } from "./parameters.js";
import { dataModelOutsideDevModeChecks } from "./outside-dev-mode.js";

/** The data-model group (E14 rules 2, 3, 11 and 14): its examples, then the rules in named parameters. */
export const dataModelSuite: Check[] = [...dataModelChecks, ...dataModelParameterChecks, ...dataModelOutsideDevModeChecks];
