import type { GroupShares } from "../../core/check/check.js";

/** What the staging checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const stagingShares: GroupShares = {
  byGroup: {
    // Toggling a branch's staging environment changes the environments list, and the branch's record
    // in the branches list (isStagingEnvironmentEnabled), which branches.list.cursor reads whole.
    staging: ["write:environments", "write:branches"],
  },
  byId: {
    "staging.negative.broken-body": ["write:environments", "write:branches"],
    // Its branch is its own, in dev mode (which a server may hold per caller, one branch at a time).
    "staging.enable.dev-mode-branch": ["write:environments", "write:branches", "add:branches", "add:environments", "write:dev-mode"],
  },
};
