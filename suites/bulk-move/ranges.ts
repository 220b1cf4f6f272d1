import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Where the stated rules the bulk-move checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const bulkMoveRanges: RangeCells = {
  "Authentication 4": [
    { where: "E12, per item the caller may not move", checks: ["bulk-move.failures.no-access-403", "bulk-move.batch.inaccessible"] },
    { where: "E12, one batch mixing items the caller may and may not move", checks: ["bulk-move.access.mixed-batch-per-item"] },
    {
      where: "E12, a destination folder the caller may only read",
      checks: ["bulk-move.access.read-only-destination", "bulk-move.access.refused-destination-stays"],
    },
  ],
  "Resources / Workbook": [{ where: "E12 moved", checks: ["bulk-move.response.schema"] }],
  "Limits: at and past each": [
    { where: "bulk move, 100 items (accepted whole, all read back)", checks: ["bulk-move.request.at-limit-accepted"] },
    { where: "bulk move, 101 items (refused)", checks: ["bulk-move.request.over-limit-rejected"] },
  ],
  E12: [
    { where: "WORKBOOK, FOLDER (and null as the root)", checks: ["bulk-move.apply.reads-back", "bulk-move.batch.invariants"] },
    { where: "WORKBOOK, REPORT and FOLDER in one batch", checks: ["bulk-move.apply.mixed-kinds"] },
    { where: "an unknown item (404)", checks: ["bulk-move.failures.missing-404", "bulk-move.batch.invariants"] },
    { where: "another deployment's item (404, stays)", checks: ["bulk-move.failures.other-deployment-404"] },
    { where: "a forbidden item (403, stays)", checks: ["bulk-move.failures.no-access-403", "bulk-move.batch.inaccessible"] },
    { where: "a folder into its own descendant: a child, a grandchild (400, stays)", checks: ["bulk-move.failures.into-descendant-400"] },
    { where: "a duplicate (collapsed to one entry)", checks: ["bulk-move.items.each-once"] },
    { where: "permitted and refused items in one batch, the refused one in the middle and first", checks: ["bulk-move.access.mixed-batch-per-item"] },
  ],
  "Errors 2": [
    {
      where: "E12 per item: 403, 400, another deployment's 404",
      checks: [
        "bulk-move.failures.no-access-403",
        "bulk-move.failures.into-descendant-400",
        "bulk-move.failures.other-deployment-404",
        "bulk-move.batch.inaccessible",
      ],
    },
    { where: "E12, a missing destination", checks: ["bulk-move.destination.missing-folder"] },
  ],
};
