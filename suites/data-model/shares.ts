import type { GroupShares } from "../../core/check/check.js";

/** What the data-model checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const dataModelShares: GroupShares = {
  byGroup: {
    // A branch, and dev mode on it, may show in the environments list (type development: the spec
    // lists development environments, and a server may hold one per branch or per dev-mode session).
    "data-model": ["add:branches", "add:environments"],
  },
  byId: {
    // Dev mode may be held per caller, on one branch at a time (its scope is not shown): a check that
    // starts it on its branch moves it off another's, so those checks never overlap.
    "data-model.files.write-needs-dev-mode": ["add:branches", "add:environments", "write:dev-mode"],
    "data-model.validate.compile-errors-200": ["add:branches", "add:environments", "write:dev-mode"],
    "data-model.validate.follows-the-files": ["add:branches", "add:environments", "write:dev-mode"],
    "data-model.files.rename": ["add:branches", "add:environments", "write:dev-mode"],
    "data-model.upload.chunks-joined": ["add:branches", "add:environments", "write:dev-mode"],
    "data-model.upload.finish-needs-dev-mode": ["add:branches", "add:environments", "write:dev-mode"],
    // Its write is in a deployment of its own, which the deployments list shows to whatever walks it.
    "data-model.files.production-write-refused": ["add:deployments"],
  },
};
