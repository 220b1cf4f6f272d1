import type { Check } from "../core/check/check.js";
import type { CheckId } from "../core/model/ids.js";
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
import { modelSuite } from "./model/index.js";
import { workspaceSuite } from "./workspace/index.js";
import { paginationSuite } from "./pagination/index.js";
import { errorsSuite } from "./errors/index.js";
import { bulkDeleteSuite } from "./bulk-delete/index.js";
import { reportsSuite } from "./reports/index.js";
import { branchesSuite } from "./branches/index.js";
import { dataModelSuite } from "./data-model/index.js";
import { regionsSuite } from "./regions/index.js";
import { pathsSuite } from "./paths/index.js";
import { appConfigSuite } from "./app-config/index.js";
import { userAttributesSuite } from "./user-attributes/index.js";
import { usersSuite } from "./users/index.js";
import { groupsSuite } from "./groups/index.js";
import { embedSuite } from "./embed/index.js";
import { notificationsSuite } from "./notifications/index.js";
import { logsSuite } from "./logs/index.js";
import { dbtSyncSuite } from "./dbt-sync/index.js";
import { policiesSuite } from "./policies/index.js";
import { embedTenantsSuite } from "./embed-tenants/index.js";
import { withShares } from "./shares.js";
import { runsApart, sharesOf } from "../core/run/schedule.js";
import { resourcesSuite } from "./resources/index.js";

/**
 * Groups that go first, whatever their modules' order (--concurrency; measured with
 * scripts/bench.ts at 40 ms a request). The audit log's checks first of all, so that running alone
 * drains nothing; then the longest chains of checks that must follow one another (the workspace
 * model and bulk-move properties with their cleanup, the deployment and staging writers, one
 * `write:` thing each), so that they start while the short checks fill the other slots; among
 * the examples, auth's probe of every operation (about 170 requests), which would otherwise take
 * a slot last. Readers and setting writers go before all of these (holdersFirst), and properties
 * take a free slot before examples (core/run/schedule.ts).
 */
const FIRST_GROUPS = ["audit", "model", "errors", "auth", "bulk-move", "deployment-update", "staging", "upsert", "pagination"];

/** Each group's checks together, in the order the groups first appear: a property stands beside its endpoint's examples. */
function byGroup(checks: Check[]): Check[] {
  const groups = [...new Set([...FIRST_GROUPS, ...checks.map((c) => c.group)])];
  return groups.flatMap((g) => checks.filter((c) => c.group === g));
}

/**
 * The checks that run apart before all others: an exclusive check (or the checks of one
 * `exclusive:<thing>`) waits for every earlier one and holds back every later one, so anywhere
 * later in the run it would empty the other slots twice.
 */
function aloneFirst(checks: Check[]): Check[] {
  const alone = (c: Check) => runsApart(sharesOf(c));
  return [...checks.filter(alone), ...checks.filter((c) => !alone(c))];
}

/**
 * After those, the checks that hold something still and add to nothing: first those that read a
 * list whole ("read:" shares, core/run/schedule.ts), then those that change a setting ("write:").
 * Each waits for every earlier check that adds to its list or changes its setting, and holds back
 * every later one. Early and together, the readers hold the lists still once, beside each other and
 * the checks that touch none of them, and the long chains of changes to one setting start while
 * the other slots fill; spread through the run, each would empty its writers' slots again (measured
 * with scripts/bench.ts at 40 ms a request).
 */
function holdersFirst(checks: Check[]): Check[] {
  const holds = (c: Check, access: string) => sharesOf(c).some((s) => s.startsWith(access)) && !sharesOf(c).some((s) => s.startsWith("add:"));
  const readers = checks.filter((c) => holds(c, "read:"));
  const writers = checks.filter((c) => !readers.includes(c) && holds(c, "write:"));
  return [...readers, ...writers, ...checks.filter((c) => !readers.includes(c) && !writers.includes(c))];
}

/** The catalogue, in run order. `conformance list`, the reports and the tests all read it. */
export const catalogue: Check[] = aloneFirst(
  holdersFirst(
    withShares(
      byGroup([
        ...deploymentsSuite,
        ...environmentsSuite,
        ...versionsSuite,
        ...envVarsSuite,
        ...specSuite,
        ...documentedSuite,
        ...workbooksSuite,
        ...authSuite,
        ...bulkMoveSuite,
        ...auditSuite,
        ...tokensSuite,
        ...stagingSuite,
        ...deploymentUpdateSuite,
        ...upsertSuite,
        ...cloneSuite,
        ...modelSuite,
        ...workspaceSuite,
        ...paginationSuite,
        ...errorsSuite,
        ...bulkDeleteSuite,
        ...reportsSuite,
        ...branchesSuite,
        ...dataModelSuite,
        ...regionsSuite,
        ...pathsSuite,
        ...appConfigSuite,
        ...userAttributesSuite,
        ...usersSuite,
        ...groupsSuite,
        ...embedSuite,
        ...notificationsSuite,
        ...logsSuite,
        ...dbtSyncSuite,
        ...policiesSuite,
        ...embedTenantsSuite,
        ...resourcesSuite,
      ]),
    ),
  ),
);

/** The checks of these ids, in catalogue order: typed, so that a test naming a renamed check does not compile. */
export const checksNamed = (...ids: CheckId[]): Check[] => catalogue.filter((c) => (ids as readonly string[]).includes(c.id));
