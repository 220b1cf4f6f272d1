import type { Check } from "../core/check.js";
import { deploymentChecks } from "./deployments.js";

/** The catalogue, in run order. `conformance list`, the reports and the tests all read it. */
export const catalogue: Check[] = [...deploymentChecks];
