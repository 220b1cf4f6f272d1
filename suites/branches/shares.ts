import type { GroupShares } from "../../core/check/check.js";

/** What the branches checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const branchesShares: GroupShares = {
  byGroup: {
    // A branch, and dev mode on it, may show in the environments list (type development: the spec
    // lists development environments, and a server may hold one per branch or per dev-mode session).
    branches: ["add:branches", "add:environments"],
  },
  byId: {
    "branches.list.cursor": ["read:branches"],
    // Its verdict is what the branches list shows of its own branches: another check's deletes beside
    // it shift a cursor that is a position, and a walk skips one (walked again too, as a second guard).
    "branches.delete.children-reparented": ["add:branches", "add:environments", "read:branches"],
    // Its branch and its deletes are in a deployment of its own, which the deployments list shows to whatever walks it.
    "branches.delete.unknown-name": ["add:deployments"],
  },
};
