import type { Check, GroupShares, Share } from "../core/check/check.js";
import type { CheckId } from "../core/model/ids.js";
import { auditShares } from "./audit/shares.js";
import { authShares } from "./auth/shares.js";
import { bulkMoveShares } from "./bulk-move/shares.js";
import { cloneShares } from "./clone/shares.js";
import { deploymentUpdateShares } from "./deployment-update/shares.js";
import { deploymentsShares } from "./deployments/shares.js";
import { documentedShares } from "./documented/shares.js";
import { bulkDeleteShares } from "./bulk-delete/shares.js";
import { reportsShares } from "./reports/shares.js";
import { branchesShares } from "./branches/shares.js";
import { dataModelShares } from "./data-model/shares.js";
import { regionsShares } from "./regions/shares.js";
import { pathsShares } from "./paths/shares.js";
import { appConfigShares } from "./app-config/shares.js";
import { userAttributesShares } from "./user-attributes/shares.js";
import { usersShares } from "./users/shares.js";
import { groupsShares } from "./groups/shares.js";
import { embedShares } from "./embed/shares.js";
import { notificationsShares } from "./notifications/shares.js";
import { logsShares } from "./logs/shares.js";
import { dbtSyncShares } from "./dbt-sync/shares.js";
import { policiesShares } from "./policies/shares.js";
import { embedTenantsShares } from "./embed-tenants/shares.js";
import { envVarsShares } from "./env-vars/shares.js";
import { environmentsShares } from "./environments/shares.js";
import { errorsShares } from "./errors/shares.js";
import { modelShares } from "./model/shares.js";
import { paginationShares } from "./pagination/shares.js";
import { stagingShares } from "./staging/shares.js";
import { tokensShares } from "./tokens/shares.js";
import { upsertShares } from "./upsert/shares.js";
import { versionsShares } from "./versions/shares.js";
import { workbooksShares } from "./workbooks/shares.js";
import { workspaceShares } from "./workspace/shares.js";

/**
 * What each group touches that others touch too (see Share in core/model/needs.ts); the scheduler of
 * --concurrency keeps checks that disturb each other apart. Each group's entries are in its folder
 * (`suites/<folder>/shares.ts`: by group, and the checks that differ from their group by id), or on
 * the check itself (`shares`, which wins). A group that is not there: read-only checks share nothing,
 * writing ones run alone.
 */
const tables: GroupShares[] = [
  auditShares,
  authShares,
  bulkMoveShares,
  cloneShares,
  deploymentUpdateShares,
  deploymentsShares,
  documentedShares,
  bulkDeleteShares,
  reportsShares,
  branchesShares,
  dataModelShares,
  regionsShares,
  pathsShares,
  appConfigShares,
  userAttributesShares,
  usersShares,
  groupsShares,
  embedShares,
  notificationsShares,
  logsShares,
  dbtSyncShares,
  policiesShares,
  embedTenantsShares,
  envVarsShares,
  environmentsShares,
  errorsShares,
  modelShares,
  paginationShares,
  stagingShares,
  tokensShares,
  upsertShares,
  versionsShares,
  workbooksShares,
  workspaceShares,
];
const byGroup: Record<string, Share[]> = Object.assign({}, ...tables.map((t) => t.byGroup ?? {}));
/** By id; a key ending in `*` names every id that starts with what precedes it. */
const byId: NonNullable<GroupShares["byId"]> = Object.assign({}, ...tables.map((t) => t.byId ?? {}));

export function withShares(checks: Check[]): Check[] {
  return checks.map((c) => {
    // An invariant runs nothing: it watches the others' exchanges, and holds nothing still.
    if (c.kind === "invariant") return c;
    const prefixed = (Object.keys(byId) as (keyof typeof byId)[]).find((k) => k.endsWith("*") && c.id.startsWith(k.slice(0, -1)));
    const shares = c.shares ?? byId[c.id as CheckId] ?? (prefixed ? byId[prefixed] : undefined) ?? byGroup[c.group];
    return shares ? { ...c, shares } : c;
  });
}
