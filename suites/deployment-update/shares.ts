import type { GroupShares } from "../../core/check/check.js";

/** What the deployment-update checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const deploymentUpdateShares: GroupShares = {
  // An update may move the deployment in E1 (a server that lists by last update: the blind C++
  // one): the checks that walk E1 whole (read:deployments) must not see it move, as they must not
  // see a deployment come or go (add:deployments, the weakest share that keeps them apart).
  byGroup: {
    "deployment-update": ["write:deployment", "add:deployments"],
  },
  byId: {
    "deployment-update.version.near-miss-forms": ["write:deployment", "add:deployments"],
    "deployment-update.negative.unlisted-version": ["write:deployment", "add:deployments"],
  },
};
