import type { GroupShares } from "../../core/model/check.js";

/** What the notifications checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/model/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const notificationsShares: GroupShares = {
  byGroup: {
    // Its checks create and remove only their own objects, or read a list others add to.
    notifications: [],
  },
};
