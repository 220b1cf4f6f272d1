import type { GroupShares } from "../../core/check/check.js";

/** What the audit checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const auditShares: GroupShares = {
  byGroup: {
    // The audit log records the run's own writes: what an audit check reads must not depend on what
    // runs beside it. First in the catalogue (FIRST_GROUPS in suites/index.ts), so that running alone drains nothing.
    audit: ["exclusive"],
  },
};
