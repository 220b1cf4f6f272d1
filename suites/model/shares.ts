import type { GroupShares } from "../../core/check/check.js";

/** What the model checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts); assembled by suites/shares.ts. */
export const modelShares: GroupShares = {
  byGroup: {
    model: ["add:workspace"],
  },
};
