import type { Check, Share } from "../core/model/check.js";
import type { CheckId } from "../core/model/ids.js";

/**
 * What each group touches that others touch too (see Share in core/model/check.ts); the scheduler of
 * --concurrency keeps checks that disturb each other apart. By group, with the checks that differ
 * from their group named by id. A group that is not here: read-only checks share nothing,
 * writing ones run alone.
 */
const byGroup: Record<string, Share[]> = {
  // E1 walked whole: a deployment another check makes (behind --allow-deployment-lifecycle) must not come and go meanwhile.
  deployments: ["read:deployments"],
  environments: ["read:environments"],
  // The audit log records the run's own writes: what an audit check reads must not depend on what
  // runs beside it. First in the catalogue (FIRST_GROUPS in suites/index.ts), so that running alone drains nothing.
  audit: ["exclusive"],
  versions: ["read:deployment"],
  "env-vars": ["read:env-vars"],
  workbooks: ["read:workspace"],
  "bulk-move": ["add:workspace"],
  // A metadata token changes nothing that another check reads.
  tokens: [],
  // Toggling a branch's staging environment changes the environments list, and the branch's record
  // in the branches list (isStagingEnvironmentEnabled), which branches.list.cursor reads whole.
  staging: ["write:environments", "write:branches"],
  "deployment-update": ["write:deployment"],
  upsert: ["add:workspace"],
  clone: ["add:workspace"],
  model: ["add:workspace"],
  // E14 families: each creates and removes only its own objects, or reads a list others add to.
  "bulk-delete": ["add:workspace"],
  reports: ["add:workspace"],
  // A branch, and dev mode on it, may show in the environments list (type development: the spec
  // lists development environments, and a server may hold one per branch or per dev-mode session).
  branches: ["add:branches", "add:environments"],
  "data-model": ["add:branches", "add:environments"],
  regions: [],
  "user-attributes": ["add:user-attributes"],
  users: ["add:users"],
  groups: [],
  embed: ["add:workspace"],
  logs: [],
  notifications: [],
  // A server may run one sync a deployment at a time (a second start answered 409): the checks that
  // start one follow one another, and the history's filters are read after them, never beside.
  "dbt-sync": ["write:dbt-sync"],
  policies: ["add:policies"],
  "embed-tenants": ["add:embed-tenants"],
};

/** By id; a key ending in `*` names every id that starts with what precedes it. */
const byId: Partial<Record<CheckId | `${string}.*`, Share[]>> = {
  // The 409 window is timing: nothing else may load the server meanwhile.
  "upsert.concurrency.*": ["exclusive"],
  "clone.limit.reached-400": ["add:workspace", "write:workbook-limit"],
  // A refused shared clone is read back as no new `Copy of {source}`: no other check may clone
  // that source meanwhile (a discovered fixture such as embeddableWorkbook may be the same workbook).
  "clone.shared.non-creator-403": ["read:workspace"],
  "clone.shared.unpublished-400": ["read:workspace"],
  "clone.access.viewer-refused": ["read:workspace"],
  // Its writes carry a body that is not JSON: nothing is applied, nothing another check reads moves.
  "documented.methods.unsupported-405": [],
  // Behind opt-ins, each on objects of its own: a user (and maybe an attribute), a clone, a file on
  // its own dev-mode branch. The deployment lifecycle and the git operations make a deployment of
  // their own (its branches, commits and repository too), which the deployments list shows to
  // whatever walks it (the deployments group).
  "documented.resources.deployment-lifecycle": ["add:deployments"],
  "documented.operations.git": ["add:deployments"],
  "documented.operations.own-user": ["add:users", "add:user-attributes"],
  "documented.operations.own-dashboard": ["add:workspace"],
  "documented.operations.own-file-delete": ["add:branches", "add:environments", "write:dev-mode"],
  // With --allow-writes its refused writes go to a workbook of its own, and refused creates may make objects of the run's.
  "auth.reject.every-operation": ["add:workspace", "add:users", "add:user-attributes"],
  "pagination.cursor.any-page-size": ["read:environments", "read:workspace", "read:env-vars"],
  "env-vars.mask.any-upper-case-marker": ["add:env-vars"],
  "env-vars.put.listed": ["add:env-vars"],
  "env-vars.mask.any-other-case-marker": ["add:env-vars"],
  "tokens.lifetime.any-expires-in": [],
  "tokens.jwt.any-lifetime": [],
  "deployment-update.version.near-miss-forms": ["write:deployment"],
  "tokens.negative.broken-body": [],
  "tokens.negative.non-positive-lifetime": [],
  "staging.negative.broken-body": ["write:environments", "write:branches"],
  "deployment-update.negative.unlisted-version": ["write:deployment"],
  "workspace.negative.broken-body": ["add:workspace"],
  "workspace.negative.broken-body-4xx": ["add:workspace"],
  // It reads back the values of the tool's variables after each refused PUT env-vars: a server may
  // keep them with E6's templateVariables (their scope is open), which a deployment writer's
  // restore would set back meanwhile (test/shares-open-scope.test.ts).
  "errors.negative.implied-rules": ["write:deployment", "add:workspace", "add:env-vars"],
  "errors.no-5xx.valid-writes": ["add:workspace"],
  "branches.list.cursor": ["read:branches"],
  "users.list.search": ["read:users"],
  "user-attributes.list.cursor": ["read:user-attributes"],
  // It syncs a branch of its own, made and removed beside the other branch writers.
  "dbt-sync.start.branch-and-ref": ["write:dbt-sync", "add:branches", "add:environments"],
  "dbt-sync.history.filters": ["read:dbt-sync"],
  // A hundred workbooks at once may fill a plan's workbook limit (plan-dependent): nothing that
  // creates workbooks (each adds to the workspace) runs beside them; what touches no workspace does.
  "bulk-move.request.at-limit-accepted": ["write:workspace"],
  "bulk-move.request.over-limit-rejected": ["write:workspace"],
  // Dev mode may be held per caller, on one branch at a time (its scope is not shown): a check that
  // starts it on its branch moves it off another's, so those checks never overlap.
  "data-model.files.write-needs-dev-mode": ["add:branches", "add:environments", "write:dev-mode"],
  "data-model.validate.compile-errors-200": ["add:branches", "add:environments", "write:dev-mode"],
  "data-model.files.rename": ["add:branches", "add:environments", "write:dev-mode"],
  "data-model.upload.chunks-joined": ["add:branches", "add:environments", "write:dev-mode"],
};

export function withShares(checks: Check[]): Check[] {
  return checks.map((c) => {
    // An invariant runs nothing: it watches the others' exchanges, and holds nothing still.
    if (c.kind === "invariant") return c;
    const prefixed = (Object.keys(byId) as (keyof typeof byId)[]).find((k) => k.endsWith("*") && c.id.startsWith(k.slice(0, -1)));
    const shares = byId[c.id as CheckId] ?? (prefixed ? byId[prefixed] : undefined) ?? byGroup[c.group];
    return shares ? { ...c, shares } : c;
  });
}
