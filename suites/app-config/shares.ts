import type { GroupShares } from "../../core/check/check.js";

/** What the app-config checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const appConfigShares: GroupShares = {
  byGroup: {
    // It only reads.
    "app-config": [],
  },
};
