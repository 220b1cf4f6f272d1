import type { GroupShares } from "../../core/check/check.js";

/** What the deployments checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const deploymentsShares: GroupShares = {
  byGroup: {
    // E1 walked whole: a deployment another check makes (behind --allow-deployment-lifecycle) must not come and go meanwhile.
    deployments: ["read:deployments"],
  },
  byId: {
    // It makes a deployment of its own, deletes it, and walks E1 for it.
    "deployments.list.deleted-not-listed": ["read:deployments", "add:deployments"],
    "deployments.deleted.gone-on-both-prefixes": ["read:deployments", "add:deployments"],
  },
};
