import type { Check } from "../core/model/check.js";
import { deploymentsSuite } from "./deployments/index.js";
import { environmentsSuite } from "./environments/index.js";
import { versionsSuite } from "./versions/index.js";
import { envVarsSuite } from "./env-vars/index.js";
import { specSuite } from "./spec/index.js";
import { documentedSuite } from "./documented/index.js";
import { workbooksSuite } from "./workbooks/index.js";
import { authSuite } from "./auth/index.js";
import { bulkMoveSuite } from "./bulk-move/index.js";
import { auditSuite } from "./audit/index.js";
import { tokensSuite } from "./tokens/index.js";
import { stagingSuite } from "./staging/index.js";
import { deploymentUpdateSuite } from "./deployment-update/index.js";
import { upsertSuite } from "./upsert/index.js";
import { cloneSuite } from "./clone/index.js";
import { workspaceSuite } from "./workspace/index.js";
import { paginationSuite } from "./pagination/index.js";
import { errorsSuite } from "./errors/index.js";
import { e14Suite } from "./e14/index.js";
import { withShares } from "./shares.js";
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
  byGroup([...deploymentsSuite, ...environmentsSuite, ...versionsSuite, ...envVarsSuite, ...specSuite, ...documentedSuite, ...workbooksSuite, ...authSuite, ...bulkMoveSuite, ...auditSuite, ...tokensSuite, ...stagingSuite, ...deploymentUpdateSuite, ...upsertSuite, ...cloneSuite, ...workspaceSuite, ...paginationSuite, ...errorsSuite, ...e14Suite, ...invariantChecks]),
);
