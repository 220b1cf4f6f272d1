import type { GroupShares } from "../../core/check/check.js";

/** What the upsert checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const upsertShares: GroupShares = {
  byGroup: {
    upsert: ["add:workspace"],
  },
  byId: {
    // The 409 window is timing: nothing else may load the server meanwhile, and the race's thirteen
    // requests need free connections of the door's sixteen at once, or the barrier of
    // core/transport/together.ts waits out its hold and the race is not forced.
    "upsert.concurrency.*": ["exclusive"],
  },
};
