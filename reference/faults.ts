import type { Fault } from "./http.js";
import { readSideFaults } from "./faults/read-side.js";
import { cloneFaults } from "./faults/clone.js";
import { upsertFaults } from "./faults/upsert.js";
import { bulkMoveFaults } from "./faults/bulk-move.js";
import { workbooksReadFaults } from "./faults/workbooks-read.js";
import { auditFaults } from "./faults/audit.js";
import { controlPlaneFaults } from "./faults/control-plane.js";
import { workspacePropertyFaults } from "./faults/properties-workspace.js";
import { propertyFaults } from "./faults/properties.js";
import { missingEndpointFaults } from "./faults/missing-endpoints.js";
import { writeAnswerFaults } from "./faults/write-answers.js";
import { authRangeFaults, levelFaults, limitFaults, omittedFieldFaults, rangeFaults } from "./faults/ranges.js";
import { e14Faults } from "./faults/e14.js";
import { e14ParameterFaults } from "./faults/e14-parameters.js";
import { documentedFaults, driftFaults } from "./faults/documented.js";
import { invariantFaults } from "./faults/invariants.js";
import { optInFaults } from "./faults/opt-ins.js";
import { inputDomainFaults } from "./faults/input-domain.js";

export { catches, caughtBy, type Fault } from "./http.js";

/** The registry: every fault of the reference server. */
export const faults: Fault[] = [
  ...readSideFaults,
  ...bulkMoveFaults,
  ...workbooksReadFaults,
  ...auditFaults,
  ...controlPlaneFaults,
  ...upsertFaults,
  ...cloneFaults,
  ...workspacePropertyFaults,
  ...propertyFaults,
  ...missingEndpointFaults,
  ...writeAnswerFaults,
  ...rangeFaults,
  ...omittedFieldFaults,
  ...authRangeFaults,
  ...levelFaults,
  ...limitFaults,
  ...e14Faults,
  ...e14ParameterFaults,
  ...documentedFaults,
  ...optInFaults,
  ...driftFaults,
  ...invariantFaults,
  ...inputDomainFaults,
];

export function faultNamed(name: string): Fault {
  const f = faults.find((x) => x.name === name);
  if (!f) throw new Error(`unknown fault '${name}' (conformance reference --list-faults shows them)`);
  return f;
}
