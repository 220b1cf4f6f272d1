import type { Check } from "../core/check.js";
import { bulkMoveChecks } from "./bulk-move.js";
import { deploymentChecks } from "./deployments.js";
import { cloneChecks } from "./clone.js";
import { upsertChecks } from "./upsert.js";
import { upsertDraftChecks } from "./upsert-drafts.js";
import { upsertConcurrencyChecks } from "./upsert-concurrency.js";
import { authChecks } from "./auth.js";
import { auditChecks } from "./audit.js";
import { workbookReadChecks } from "./workbooks.js";
import { envVarChecks } from "./env-vars.js";
import { environmentChecks } from "./environments.js";
import { specChecks } from "./spec.js";
import { documentedChecks } from "./documented.js";
import { versionChecks } from "./versions.js";
import { tokenChecks } from "./tokens.js";
import { stagingChecks } from "./staging.js";
import { deploymentUpdateChecks } from "./deployment-update.js";
import { workspacePropertyChecks } from "./properties-workspace.js";
import { workspaceModelChecks } from "./model-workspace.js";
import { propertyChecks } from "./properties.js";
import { negativeChecks } from "./properties-negative.js";
import { serverErrorChecks } from "./properties-server-errors.js";
import { withShares } from "./shares.js";
import { e14WorkspaceChecks } from "./e14-workspace.js";
import { e14BuildChecks } from "./e14-build.js";
import { e14AdminChecks } from "./e14-admin.js";
import { e14OperationChecks } from "./e14-operations.js";
import { e14NamedParameterChecks } from "./e14-named-parameters.js";
import { e14OptInChecks } from "./e14-optins.js";
import { roleAccessChecks } from "./role-access.js";
import { invariantChecks } from "./invariants/index.js";

/**
 * Groups that go first, whatever their modules' order: each holds checks that must not overlap
 * what others change (the audit log, the lists the cursor property walks whole), so that they wait
 * for little and the rest runs beside or after them (--concurrency).
 */
const FIRST_GROUPS = ["audit", "pagination"];

/** Each group's checks together, in the order the groups first appear: a property stands beside its endpoint's examples. */
function byGroup(checks: Check[]): Check[] {
  const groups = [...new Set([...FIRST_GROUPS, ...checks.map((c) => c.group)])];
  return groups.flatMap((g) => checks.filter((c) => c.group === g));
}

/** The catalogue, in run order. `conformance list`, the reports and the tests all read it. */
export const catalogue: Check[] = withShares(
  byGroup([...deploymentChecks, ...environmentChecks, ...versionChecks, ...envVarChecks, ...specChecks, ...documentedChecks, ...e14OptInChecks, ...workbookReadChecks, ...authChecks, ...bulkMoveChecks, ...auditChecks, ...tokenChecks, ...stagingChecks, ...deploymentUpdateChecks, ...upsertChecks, ...upsertDraftChecks, ...upsertConcurrencyChecks, ...cloneChecks, ...roleAccessChecks, ...workspacePropertyChecks, ...workspaceModelChecks, ...propertyChecks, ...negativeChecks, ...serverErrorChecks, ...e14WorkspaceChecks, ...e14BuildChecks, ...e14AdminChecks, ...e14OperationChecks, ...e14NamedParameterChecks, ...invariantChecks]),
);
