import type { GroupShares } from "../../core/check/check.js";

/** What the bulk-move checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const bulkMoveShares: GroupShares = {
  byGroup: {
    "bulk-move": ["add:workspace"],
  },
  byId: {
    // A hundred workbooks at once may fill a plan's workbook limit (plan-dependent): nothing that
    // creates workbooks (each adds to the workspace) runs beside them; what touches no workspace does.
    "bulk-move.request.at-limit-accepted": ["write:workspace"],
    "bulk-move.request.over-limit-rejected": ["write:workspace"],
  },
};
