import type { GroupShares } from "../../core/check/check.js";

/** What the environments checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const environmentsShares: GroupShares = {
  byGroup: {
    environments: ["read:environments"],
  },
  byId: {
    // It makes two branches of its own with staging on, and walks the list whole: nothing else may add to it meanwhile.
    "environments.filter.every-page-own-staging": ["read:environments", "add:environments", "add:branches"],
  },
};
