import { catalogue } from "./index.js";
import { coreReasons, type Reason, reasonIn } from "../core/model/reasons.js";
import { auditReasons } from "./audit/reasons.js";
import { bulkMoveReasons } from "./bulk-move/reasons.js";
import { cloneReasons } from "./clone/reasons.js";
import { deploymentUpdateReasons } from "./deployment-update/reasons.js";
import { deploymentsReasons } from "./deployments/reasons.js";
import { documentedReasons } from "./documented/reasons.js";
import { bulkDeleteReasons } from "./bulk-delete/reasons.js";
import { reportsReasons } from "./reports/reasons.js";
import { branchesReasons } from "./branches/reasons.js";
import { dataModelReasons } from "./data-model/reasons.js";
import { userAttributesReasons } from "./user-attributes/reasons.js";
import { usersReasons } from "./users/reasons.js";
import { notificationsReasons } from "./notifications/reasons.js";
import { logsReasons } from "./logs/reasons.js";
import { dbtSyncReasons } from "./dbt-sync/reasons.js";
import { policiesReasons } from "./policies/reasons.js";
import { embedTenantsReasons } from "./embed-tenants/reasons.js";
import { modelReasons } from "./model/reasons.js";
import { envVarsReasons } from "./env-vars/reasons.js";
import { environmentsReasons } from "./environments/reasons.js";
import { specReasons } from "./spec/reasons.js";
import { pathsReasons } from "./paths/reasons.js";
import { workspaceReasons } from "./workspace/reasons.js";
import { appConfigReasons } from "./app-config/reasons.js";
import { stagingReasons } from "./staging/reasons.js";
import { tokensReasons } from "./tokens/reasons.js";
import { upsertReasons } from "./upsert/reasons.js";
import { versionsReasons } from "./versions/reasons.js";
import { workbooksReasons } from "./workbooks/reasons.js";

/**
 * The registry of failure reasons, assembled by import: core's (the generic kinds and the keys several
 * groups share), each group's, kept in its folder beside its checks, and those a check declares as its own. scripts/ids.ts writes its keys
 * into core/model/ids.ts (the ReasonKey type); test/fault-reasons.test.ts holds every key named in the
 * suite and the faults to it, and no key to two homes.
 */
export const reasonTables: Record<string, Record<string, Reason>> = {
  core: coreReasons,
  checks: Object.assign({}, ...catalogue.map((c) => c.reasons ?? {})),
  audit: auditReasons,
  "bulk-move": bulkMoveReasons,
  clone: cloneReasons,
  "deployment-update": deploymentUpdateReasons,
  deployments: deploymentsReasons,
  documented: documentedReasons,
  "bulk-delete": bulkDeleteReasons,
  reports: reportsReasons,
  branches: branchesReasons,
  "data-model": dataModelReasons,
  "user-attributes": userAttributesReasons,
  users: usersReasons,
  notifications: notificationsReasons,
  logs: logsReasons,
  "dbt-sync": dbtSyncReasons,
  policies: policiesReasons,
  "embed-tenants": embedTenantsReasons,
  "env-vars": envVarsReasons,
  environments: environmentsReasons,
  model: modelReasons,
  spec: specReasons,
  paths: pathsReasons,
  workspace: workspaceReasons,
  "app-config": appConfigReasons,
  staging: stagingReasons,
  tokens: tokensReasons,
  upsert: upsertReasons,
  versions: versionsReasons,
  workbooks: workbooksReasons,
};

export const reasons: Record<string, Reason> = Object.assign({}, ...Object.values(reasonTables));

/** The registry's entry for a key, or undefined for a key it does not hold. */
export const reasonOf = (key: string): Reason | undefined => reasonIn(reasons, key);
