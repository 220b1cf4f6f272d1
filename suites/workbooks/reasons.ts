import type { GroupReason } from "../../core/model/reasons.js";

/** What the workbooks checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const workbooksReasons = {
  "count-matches": { title: "Count equals the workbooks the walk saw", expected: "the value the rule names" },
  "count-not-below": { title: "Count is not below the workbooks the walk saw", expected: ">= …" },
  "folder-path-every-ancestor": {
    title: "FolderPath lists every ancestor of the containing folder on each read path",
    expected: "the folders the run nested",
  },
  "folder-filter": { title: "FolderId=… lists only workbooks of that folder", expected: "folderId … on every item" },
  "unknown-folder-empty": {
    title: "A folder id no folder has lists no workbook (or is refused)",
    expected: "200 with no workbook of another folder, or a 4xx",
  },
  "no-previous-page": { title: "The first page (no after) has no previous page", expected: "hasPreviousPage false" },
  "same-field": { title: "Workbook … of the get equals the list item's", expected: "the value the rule names" },
} as const satisfies Record<string, GroupReason>;
