import type { Fault } from "./http.js";
import { auditFaults } from "./faults/audit.js";
import { authFaults } from "./faults/auth.js";
import { branchesFaults } from "./faults/branches.js";
import { bulkDeleteFaults } from "./faults/bulk-delete.js";
import { bulkMoveFaults } from "./faults/bulk-move.js";
import { cloneFaults } from "./faults/clone.js";
import { dataModelFaults } from "./faults/data-model.js";
import { dbtSyncFaults } from "./faults/dbt-sync.js";
import { deploymentUpdateFaults } from "./faults/deployment-update.js";
import { deploymentsFaults } from "./faults/deployments.js";
import { documentedFaults } from "./faults/documented.js";
import { embedFaults } from "./faults/embed.js";
import { embedTenantsFaults } from "./faults/embed-tenants.js";
import { groupsFaults } from "./faults/groups.js";
import { envVarsFaults } from "./faults/env-vars.js";
import { environmentsFaults } from "./faults/environments.js";
import { errorsFaults } from "./faults/errors.js";
import { logsFaults } from "./faults/logs.js";
import { modelFaults } from "./faults/model.js";
import { notificationsFaults } from "./faults/notifications.js";
import { paginationFaults } from "./faults/pagination.js";
import { policiesFaults } from "./faults/policies.js";
import { reportsFaults } from "./faults/reports.js";
import { resourcesFaults } from "./faults/resources.js";
import { specFaults } from "./faults/spec.js";
import { stagingFaults } from "./faults/staging.js";
import { tokensFaults } from "./faults/tokens.js";
import { upsertFaults } from "./faults/upsert.js";
import { userAttributesFaults } from "./faults/user-attributes.js";
import { usersFaults } from "./faults/users.js";
import { versionsFaults } from "./faults/versions.js";
import { workbooksFaults } from "./faults/workbooks.js";
import { workspaceFaults } from "./faults/workspace.js";
import { missingEndpointFaults } from "./faults/missing-endpoints.js";
import { pathsFaults } from "./faults/paths.js";
import { appConfigFaults } from "./faults/app-config.js";

export { catches, caughtBy, type Fault } from "./http.js";

/** The faults by the group of checks they prove: a file per group (reference/faults/<group>.ts), each fault catching a check of its group (test/fault-reasons.test.ts). */
export const FAULTS_BY_GROUP: Record<string, Fault[]> = {
  "app-config": appConfigFaults,
  audit: auditFaults,
  auth: authFaults,
  branches: branchesFaults,
  "bulk-delete": bulkDeleteFaults,
  "bulk-move": bulkMoveFaults,
  clone: cloneFaults,
  "data-model": dataModelFaults,
  "dbt-sync": dbtSyncFaults,
  "deployment-update": deploymentUpdateFaults,
  deployments: deploymentsFaults,
  documented: documentedFaults,
  embed: embedFaults,
  "embed-tenants": embedTenantsFaults,
  groups: groupsFaults,
  "env-vars": envVarsFaults,
  environments: environmentsFaults,
  errors: errorsFaults,
  logs: logsFaults,
  model: modelFaults,
  notifications: notificationsFaults,
  pagination: paginationFaults,
  paths: pathsFaults,
  policies: policiesFaults,
  reports: reportsFaults,
  resources: resourcesFaults,
  spec: specFaults,
  staging: stagingFaults,
  tokens: tokensFaults,
  upsert: upsertFaults,
  "user-attributes": userAttributesFaults,
  users: usersFaults,
  versions: versionsFaults,
  workbooks: workbooksFaults,
  workspace: workspaceFaults,
};

/** The registry: every fault of the reference server, and the missing endpoints the table gives (their owners span the groups). */
export const faults: Fault[] = [...Object.values(FAULTS_BY_GROUP).flat(), ...missingEndpointFaults];

export function faultNamed(name: string): Fault {
  const f = faults.find((x) => x.name === name);
  if (!f) throw new Error(`unknown fault '${name}' (conformance reference --list-faults shows them)`);
  return f;
}
