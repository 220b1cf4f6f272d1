import { type Check, group } from "../../core/check/check.js";
import { deploymentChecks } from "./examples.js";
import { deploymentPropertyChecks } from "./properties.js";
import { deploymentScoping } from "./scoping.js";
import { deploymentAccessChecks } from "./access.js";
import { deploymentDeletedChecks } from "./deleted.js";

/** The deployments group: its examples, properties, negative data and model runs side by side, then the invariant over every answer (core/run/invariants.ts). */
export const deploymentsSuite: Check[] = [
  ...deploymentChecks,
  ...deploymentAccessChecks,
  ...deploymentDeletedChecks,
  ...deploymentPropertyChecks,
  ...group("deployments", [deploymentScoping]),
];
