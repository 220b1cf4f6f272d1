import type { GroupReason } from "../../core/model/reasons.js";

/** What the bulk-delete checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const bulkDeleteReasons = {
  "gone-on-read": { title: "A workbook reported deleted reads 404 by E9", expected: "404" },
  "contents-to-root": { title: "A deleted folder's workbook is at the root", expected: "folderId null" },
  once: { title: "The item appears once in deleted", expected: "the value the rule names" },
  "others-deleted": { title: "Deleted holds …", expected: "failed holds … {error: {status, message}}" },
  "per-item-answer": { title: "A well-formed bulk delete answers 200 with deleted and failed", expected: "200 {deleted: [...], failed: [...]}" },
  "stays-deleted": { title: "Workbook …, reported deleted, reads 404 after the batch failed on a later item", expected: "the value the rule names" },
  "forbidden-403": { title: "An item the caller may not delete is reported with 403", expected: "a per-item failure with status 403" },
  "still-there": { title: "An item a bulk operation did not apply is still there", expected: "the item as it was" },
  "sub-folders-400": { title: "A folder that still holds a sub-folder is reported in failed with 400", expected: "a per-item failure with status 400" },
  "mixed-failed": { title: "A batch of mixed item kinds is applied to each", expected: "no per-item failure" },
} as const satisfies Record<string, GroupReason>;
