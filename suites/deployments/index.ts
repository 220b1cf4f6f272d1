import type { Check } from "../../core/model/check.js";
import { deploymentChecks } from "./examples.js";
import { deploymentPropertyChecks } from "./properties.js";

/** The deployments group: its examples, properties, negative data and model runs side by side. */
export const deploymentsSuite: Check[] = [...deploymentChecks, ...deploymentPropertyChecks];
