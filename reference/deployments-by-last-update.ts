import { cleanBehaviour } from "./behaviour.js";
import { deploymentOf } from "./routes/common.js";
import type { DeploymentRecord } from "./store.js";
import type { Variant } from "./variant.js";

/** When each deployment last took an update, in the order of the updates (by record: each server's records are its own). */
const changed = new WeakMap<DeploymentRecord, number>();
let updates = 0;

/**
 * E1's order is not shown: the blind C++ server lists the most recently changed deployment first,
 * so an accepted E6 update moves it to the front while other checks may be walking the list (the
 * walkers and the updaters must not overlap: suites/deployment-update/shares.ts).
 */
export const deploymentsByLastUpdate: Variant = {
  name: "deployments-by-last-update",
  description: "E1 lists the most recently updated deployment first (order not shown): an accepted E6 update moves its deployment to the front of the list",
  routes: ["E6"],
  exercises: ["E1"],
  reply: (reply, req, app) => {
    changed.set(deploymentOf(app, req), ++updates);
    return reply;
  },
  behaviour: {
    listedDeployments: (user, all) =>
      cleanBehaviour
        .listedDeployments(user, all)
        .map((d, i) => ({ d, i, at: changed.get(d) ?? 0 }))
        .sort((a, b) => b.at - a.at || a.i - b.i)
        .map((x) => x.d),
  },
};
