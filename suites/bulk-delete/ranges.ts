import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Where the stated rules the bulk-delete checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const bulkDeleteRanges: RangeCells = {
  "E14 rule 1": [
    { where: "an unknown item", checks: ["bulk-delete.items.per-item-failures"] },
    { where: "a forbidden item (403, still there)", checks: ["bulk-delete.items.forbidden-reported"] },
    { where: "an item reported failed: it and its reports as before", checks: ["bulk-delete.items.refused-item-intact"] },
    { where: "a duplicate (collapsed to one entry)", checks: ["bulk-delete.items.duplicates-collapsed"] },
    { where: "WORKBOOK, REPORT and FOLDER in one batch", checks: ["bulk-delete.items.mixed-kinds"] },
    { where: "a folder that still holds a sub-folder (400, both still there)", checks: ["bulk-delete.items.folder-with-sub-folder-400"] },
  ],
  "Errors 2": [{ where: "bulk delete (E14), a forbidden item", checks: ["bulk-delete.items.forbidden-reported"] }],
};
