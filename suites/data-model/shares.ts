import type { GroupShares } from "../../core/model/check.js";

/** What the e14 checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/model/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const e14Shares: GroupShares = {
  byGroup: {
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
  },
  byId: {
    "branches.list.cursor": ["read:branches"],
    "users.list.search": ["read:users"],
    "user-attributes.list.cursor": ["read:user-attributes"],
    // It syncs a branch of its own, made and removed beside the other branch writers.
    "dbt-sync.start.branch-and-ref": ["write:dbt-sync", "add:branches", "add:environments"],
    "dbt-sync.history.filters": ["read:dbt-sync"],
    // Dev mode may be held per caller, on one branch at a time (its scope is not shown): a check that
    // starts it on its branch moves it off another's, so those checks never overlap.
    "data-model.files.write-needs-dev-mode": ["add:branches", "add:environments", "write:dev-mode"],
    "data-model.validate.compile-errors-200": ["add:branches", "add:environments", "write:dev-mode"],
    "data-model.files.rename": ["add:branches", "add:environments", "write:dev-mode"],
    "data-model.upload.chunks-joined": ["add:branches", "add:environments", "write:dev-mode"],
  },
};
