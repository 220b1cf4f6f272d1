import { groupedById } from "../../core/check/check.js";
import { schemaConformance, widgetTypes } from "./schemas.js";
import { isoTimestamps } from "./timestamps.js";
import { jsonMediaType } from "./media-type.js";
import { dashboardOwner } from "./dashboard-owner.js";

/**
 * The resources group: invariants over all traffic of the run (core/run/invariants.ts) about the
 * spec's records. The timestamps come before the schemas: a malformed timestamp is the timestamps
 * invariant's defect (core/run/shared-defects.ts takes the first invariant as the root).
 */
export const resourcesSuite = groupedById([isoTimestamps, schemaConformance, widgetTypes, jsonMediaType, dashboardOwner]);
