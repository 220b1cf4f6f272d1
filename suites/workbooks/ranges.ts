import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Where the stated rules the workbooks checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const workbooksRanges: RangeCells = {
  "Pagination styles 2": [
    { where: "E8 items, any first, every page", checks: ["workbooks.list.cursor-walk"] },
    { where: "E8 and E13 deprecated data, every page", checks: ["workbooks.list.data-mirrors-items"] },
  ],
  E8: [
    { where: "one large page", checks: ["workbooks.list.folder-filter"] },
    { where: "first/after, every page", checks: ["workbooks.list.folder-filter-every-page"] },
  ],
  "Resources / Workbook": [
    { where: "E8 items and data, every page", checks: ["workbooks.list.schema"] },
    { where: "E9", checks: ["workbooks.get.schema"] },
    { where: "folderPath three deep, on E9 and in E8's list", checks: ["workbooks.folder-path.every-read-path"] },
  ],
};
