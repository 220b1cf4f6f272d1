import type { GroupShares } from "../../core/check/check.js";

/** What the pagination checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const paginationShares: GroupShares = {
  byId: {
    "pagination.cursor.any-page-size": ["read:environments", "read:workspace", "read:env-vars"],
    // Walks the lists whole, then again where their last page is exactly full: they must hold still between.
    "pagination.cursor.last-page-exact": ["read:workspace", "read:env-vars"],
  },
};
