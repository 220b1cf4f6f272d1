import type { Check } from "../../core/check/check.js";
import { deploymentUpdateChecks } from "./examples.js";
import { deploymentUpdatePropertyChecks } from "./properties.js";
import { deploymentUpdateNegativeChecks } from "./negative.js";
import { deploymentUpdateReadBackChecks } from "./read-back.js";
import { deploymentUpdateImageChecks } from "./image.js";
import { deploymentUpdateNewKeyChecks } from "./new-key.js";
import { deploymentUpdateOwnVersionChecks } from "./own-versions.js";

/** The deployment-update group: its examples, properties, negative data and model runs side by side. */
export const deploymentUpdateSuite: Check[] = [
  ...deploymentUpdateChecks,
  ...deploymentUpdateNewKeyChecks,
  ...deploymentUpdateOwnVersionChecks,
  ...deploymentUpdateReadBackChecks,
  ...deploymentUpdateImageChecks,
  ...deploymentUpdatePropertyChecks,
  ...deploymentUpdateNegativeChecks,
];
