import type { GroupShares } from "../../core/check/check.js";

/** What the workbooks checks touch that others touch too (Share, core/model/needs.ts; GroupShares, core/check/check.ts): by group, and the checks that differ from their group by id; assembled by suites/shares.ts. */
export const workbooksShares: GroupShares = {
  byGroup: {
    workbooks: ["read:workspace"],
  },
  byId: {
    // Folders and a workbook of its own, three deep: it adds to the workspace, it holds none of it still.
    "workbooks.folder-path.every-read-path": ["add:workspace"],
  },
};
