import type { GroupShares } from "../../core/check/check.js";

/** What the staging checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const stagingShares: GroupShares = {
  byGroup: {
    // Toggling a branch's staging environment changes its flag (which every toggle reads and sets:
    // write:staging-flags, so toggles never overlap), the environments list (a staging environment
    // comes or goes) and the branch's record in the branches list (isStagingEnvironmentEnabled),
    // which their readers walk whole (add: keeps them apart from read:). The checks that add
    // branches and environments of their own do not read the flag: they run beside the toggles.
    staging: ["write:staging-flags", "add:environments", "add:branches"],
  },
  byId: {
    // Its branch is its own, in dev mode (which a server may hold per caller, one branch at a time).
    "staging.enable.dev-mode-branch": ["write:staging-flags", "add:environments", "add:branches", "write:dev-mode"],
    // Its branch and that branch's staging environment are its own: beside every toggle and adder,
    // apart from the readers of the two lists only.
    "staging.enable.stays-active": ["add:environments", "add:branches"],
  },
};
