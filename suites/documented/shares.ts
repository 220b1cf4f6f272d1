import type { GroupShares } from "../../core/check/check.js";

/** What the documented checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const documentedShares: GroupShares = {
  byId: {
    // Its writes carry a body that is not JSON: nothing is applied, nothing another check reads moves.
    "documented.methods.unsupported-405": [],
    // Behind opt-ins, each on objects of its own: a user (and maybe an attribute), a clone, a file on
    // its own dev-mode branch. The deployment lifecycle and the git operations make a deployment of
    // their own (its branches, commits and repository too), which the deployments list shows to
    // whatever walks it (the deployments group). Dev mode there is the caller's, whose scope is not
    // shown: a server may hold it per caller across deployments (write:dev-mode).
    "documented.resources.deployment-lifecycle": ["add:deployments"],
    "documented.operations.git": ["add:deployments", "write:dev-mode"],
    "documented.operations.own-user": ["add:users", "add:user-attributes"],
    "documented.operations.own-dashboard": ["add:workspace"],
    "documented.operations.own-file-delete": ["add:branches", "add:environments", "write:dev-mode"],
  },
};
