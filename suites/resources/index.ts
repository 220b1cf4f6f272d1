import { groupedById } from "../../core/model/check.js";
import { schemaConformance, widgetTypes } from "./schemas.js";
import { secretMasking } from "../env-vars/secrets.js";
import { deploymentScoping } from "../deployments/scoping.js";
import { isoTimestamps } from "./timestamps.js";
import { noServerErrors } from "../errors/no-5xx.js";
import { legacyFieldsKept } from "../pagination/legacy-fields.js";

/**
 * The rules that hold for every answer, as invariants over all traffic of the run
 * (core/run/invariants.ts). Each belongs to the group its id starts with. The timestamps come before
 * the schemas: a malformed timestamp is the timestamps invariant's defect (core/run/shared-defects.ts
 * takes the first invariant as the root).
 */
export const invariantChecks = groupedById([isoTimestamps, schemaConformance, widgetTypes, secretMasking, deploymentScoping, noServerErrors, legacyFieldsKept]);
