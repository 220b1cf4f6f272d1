import type { GroupShares } from "../../core/check/check.js";

/** What the user-attributes checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const userAttributesShares: GroupShares = {
  byGroup: {
    // Its checks create and remove only their own objects, or read a list others add to.
    "user-attributes": ["add:user-attributes"],
  },
  byId: {
    "user-attributes.list.cursor": ["read:user-attributes"],
    // Its values are set on a user of its own.
    "user-attributes.values.typed": ["add:user-attributes", "add:users"],
  },
};
