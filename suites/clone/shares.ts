import type { GroupShares } from "../../core/check/check.js";

/** What the clone checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const cloneShares: GroupShares = {
  byGroup: {
    clone: ["add:workspace"],
  },
  byId: {
    "clone.limit.reached-400": ["add:workspace", "write:workbook-limit"],
    // A refused shared clone is read back as no new `Copy of {source}`: no other check may clone
    // that source meanwhile (a discovered fixture such as embeddableWorkbook may be the same workbook).
    "clone.shared.non-creator-403": ["read:workspace"],
    "clone.shared.unpublished-400": ["read:workspace"],
    "clone.access.viewer-refused": ["read:workspace"],
  },
};
