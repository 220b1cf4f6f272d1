import type { GroupShares } from "../../core/check/check.js";

/** What the deployment-update checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const deploymentUpdateShares: GroupShares = {
  byGroup: {
    "deployment-update": ["write:deployment"],
  },
  byId: {
    "deployment-update.version.near-miss-forms": ["write:deployment"],
    "deployment-update.negative.unlisted-version": ["write:deployment"],
  },
};
