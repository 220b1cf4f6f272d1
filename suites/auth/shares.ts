import type { GroupShares } from "../../core/check/check.js";

/** What the auth checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const authShares: GroupShares = {
  byId: {
    // With --allow-writes its refused writes go to a workbook of its own, and refused creates may make objects of the run's.
    "auth.reject.every-operation": ["add:workspace", "add:users", "add:user-attributes"],
  },
};
