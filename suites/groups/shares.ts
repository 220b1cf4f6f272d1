import type { GroupShares } from "../../core/check/check.js";

/** What the groups checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const groupsShares: GroupShares = {
  byGroup: {
    // Its checks create and remove only their own groups, or read the list whole, which must hold still meanwhile.
    groups: ["add:groups"],
  },
  byId: {
    "groups.list.search": ["read:groups"],
  },
};
