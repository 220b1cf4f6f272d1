import type { Check } from "../check/check.js";
import type { HttpClient } from "../transport/http.js";
import { fixturesFor } from "../check/fixtures.js";
import { Scratch } from "../ledger/scratch.js";
import { optInGranted, type RunSettings } from "../api/settings.js";
import { ENV_VAR_POOL, ENV_VAR_TAG, fixedAttributeName, TEMPLATE_VARIABLE_POOL } from "../api/fixed-names.js";

/**
 * What a run with writes will change, and where, in a few lines printed before its first check:
 * a user pointing the suite at a real tenant learns it before anything happens, not from the report.
 */
export async function writePlan(checks: Check[], settings: RunSettings, door: HttpClient): Promise<string[]> {
  if (!settings.writes)
    return [
      `read-only: this run sends GET only (HEAD and OPTIONS at most), whatever the server answers; --allow-writes runs the ${checks.filter((c) => c.needs.includes("writes")).length} selected checks that change the server`,
    ];
  const runs = (c: Check) => c.needs.includes("writes") && c.needs.every((n) => optInGranted(n, settings) !== false);
  const writing = checks.filter(runs);
  const has = (need: Check["needs"][number]) => writing.some((c) => c.needs.includes(need));
  const f = settings.fixtures;
  // The run's own choice (core/check/fixtures.ts), made here through the run's door and read again by the checks: the deployment named is the one written.
  door.phase = "plan";
  const main = await fixturesFor(door, f)
    .get("deployment")
    .then(
      (d) => d.id,
      () => "(none found: E1 could not be read or lists none)",
    );
  const prefix = new Scratch(settings.seed.toString(36)).prefix;
  const lines = [
    `writes: ${writing.length} of the ${checks.length} selected checks will change the server (methods sent: GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE):`,
  ];
  if (writing.some((c) => !c.group.startsWith("tokens") && !c.needs.includes("fixture:sharedBranch") && !c.needs.includes("deployment-changes")))
    lines.push(
      `  - create folders, workbooks and reports named ${prefix}-… in deployment ${main}, moving and changing only those (with every key the run has, to try its access), and delete them after each check`,
    );
  if (has("fixture:sharedBranch")) lines.push(`  - switch the staging environment of a shared branch of deployment ${main} on and off, and put it back`);
  if (has("fixture:environments")) lines.push(`  - issue metadata tokens for an environment of deployment ${main}`);
  if (has("unremovable-writes"))
    lines.push(
      `  - set environment variables in deployment ${main}, the API cannot delete them: only the tool's fixed ${ENV_VAR_POOL.length} names (${ENV_VAR_TAG} in each: ${ENV_VAR_POOL.join(", ")}), overwritten by every run`,
    );
  if (has("admin-writes"))
    lines.push(
      `  - create users and user attributes named after ${prefix}, deactivate, activate and delete only those, and delete the attributes${settings.unremovableWrites ? ` (where the server documents no delete of an attribute: only the tool's fixed ${fixedAttributeName("<type>")} ones, one a type, which stay)` : ""}`,
    );
  if (has("deployment-lifecycle"))
    lines.push(
      `  - create a deployment named ${prefix}-…, advance and reset its setup wizard, and delete it once a read-back shows it as the run's own (no other deployment is ever deleted); once deleted, ask to write a workbook in it, which must be refused`,
    );
  else lines.push("  - no deployment created or deleted (that needs --allow-deployment-lifecycle)");
  if (has("git-operations"))
    lines.push(
      `  - in a deployment the run creates (${prefix}-…, deleted after): commit, pull and merge branches of its own, merge one into that deployment's default branch, and connect it to the first repository the GitHub installation lists`,
    );
  else lines.push("  - no commit, pull, merge or repository connection (that needs --allow-git-operations and --allow-deployment-lifecycle)");
  if (has("unnamed-operations"))
    lines.push(
      `  - send one valid request to each write of the server's document that the spec does not name (its effect unknown to the tool), on objects of deployment ${main} the run discovered`,
    );
  else lines.push("  - no operation the spec does not name (that needs --allow-unnamed-operations)");
  if ((has("fixture:namedOtherDeployment") || has("fixture:otherDeployment")) && f.otherDeploymentId !== undefined)
    lines.push(`  - create a workbook in deployment ${f.otherDeploymentId} (fixtures.otherDeploymentId), and delete it`);
  else if (has("fixture:otherDeployment"))
    lines.push(
      `  - ask deployment ${main} to move a root workbook of another deployment it lists to the root: a conformant server refuses it (404), one that takes it moves nothing; no request is sent to that deployment`,
    );
  if (settings.deploymentChanges && f.mutableDeploymentId !== undefined && has("deployment-changes"))
    lines.push(
      `  - change the version, release channel and settings of deployment ${f.mutableDeploymentId} (fixtures.mutableDeploymentId), and put them back after each check; the template variables a run may leave (a new key it adds, with --allow-unremovable-writes, where the server takes no null as a removal; a refused update's, taken anyway) are only the tool's fixed ${TEMPLATE_VARIABLE_POOL.length} (${TEMPLATE_VARIABLE_POOL.join(", ")})`,
    );
  // Both given, but no selected check changes a deployment (a shard, a --check subset): say so, not what is missing.
  else if (settings.deploymentChanges && f.mutableDeploymentId !== undefined)
    lines.push("  - no deployment's version, channel or settings (no selected check changes them)");
  else lines.push("  - no deployment's version, channel or settings (that needs --allow-deployment-changes and fixtures.mutableDeploymentId)");
  return lines;
}
