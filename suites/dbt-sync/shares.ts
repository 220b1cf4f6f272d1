import type { GroupShares } from "../../core/check/check.js";

/** What the dbt-sync checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const dbtSyncShares: GroupShares = {
  byGroup: {
    // A server may run one sync a deployment at a time (a second start answered 409): the checks that
    // start one follow one another, and the history's filters are read after them, never beside.
    "dbt-sync": ["write:dbt-sync"],
  },
  byId: {
    // It syncs a branch of its own, made and removed beside the other branch writers.
    "dbt-sync.start.branch-and-ref": ["write:dbt-sync", "add:branches", "add:environments"],
    "dbt-sync.history.filters": ["read:dbt-sync"],
  },
};
