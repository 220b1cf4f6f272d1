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
import { sharesOf } from "../core/schedule.js";
import { e14WorkspaceChecks } from "./e14-workspace.js";
import { e14BuildChecks } from "./e14-build.js";
import { e14AdminChecks } from "./e14-admin.js";
import { e14OperationChecks } from "./e14-operations.js";
import { e14NamedParameterChecks } from "./e14-named-parameters.js";
import { roleAccessChecks } from "./role-access.js";
import { invariantChecks } from "./invariants/index.js";

/**
 * Groups that go first, whatever their modules' order (--concurrency; measured with
 * scripts/bench.ts at 40 ms a request). The audit log's checks first of all, so that running alone
 * drains nothing; then the longest chains of checks that must follow one another (the workspace
 * model and bulk-move properties with their cleanup, the deployment and staging writers, one
 * `write:` thing each), so that they start while the short checks fill the other slots; the
 * cursor property, which holds the workspace lists still, after the workspace writers it would
 * otherwise keep waiting.
 */
const FIRST_GROUPS = ["audit", "model", "bulk-move", "deployment-update", "staging", "upsert", "pagination"];

/** Each group's checks together, in the order the groups first appear: a property stands beside its endpoint's examples. */
function byGroup(checks: Check[]): Check[] {
  const groups = [...new Set([...FIRST_GROUPS, ...checks.map((c) => c.group)])];
  return groups.flatMap((g) => checks.filter((c) => c.group === g));
}

/**
 * The checks that run alone before all others: an exclusive check waits for every earlier one and
 * holds back every later one, so anywhere later in the run it would empty the other slots twice.
 */
function aloneFirst(checks: Check[]): Check[] {
  const alone = (c: Check) => sharesOf(c).includes("exclusive");
  return [...checks.filter(alone), ...checks.filter((c) => !alone(c))];
}

/** The catalogue, in run order. `conformance list`, the reports and the tests all read it. */
export const catalogue: Check[] = aloneFirst(
  withShares(
    byGroup([...deploymentChecks, ...environmentChecks, ...versionChecks, ...envVarChecks, ...specChecks, ...documentedChecks, ...workbookReadChecks, ...authChecks, ...bulkMoveChecks, ...auditChecks, ...tokenChecks, ...stagingChecks, ...deploymentUpdateChecks, ...upsertChecks, ...upsertDraftChecks, ...upsertConcurrencyChecks, ...cloneChecks, ...roleAccessChecks, ...workspacePropertyChecks, ...workspaceModelChecks, ...propertyChecks, ...negativeChecks, ...serverErrorChecks, ...e14WorkspaceChecks, ...e14BuildChecks, ...e14AdminChecks, ...e14OperationChecks, ...e14NamedParameterChecks, ...invariantChecks]),
  ),
);
