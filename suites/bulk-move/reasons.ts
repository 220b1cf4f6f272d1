import type { GroupReason } from "../../core/model/reasons.js";

/** What the bulk-move checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const bulkMoveReasons = {
  "kinds-distinct": { title: "References of one id and different types are distinct items, each answered", expected: "each answered, the run's own moved" },
  "all-answered": { title: "Every distinct item sent is in moved or in failed", expected: "the value the rule names" },
  "duplicates-collapse": { title: "Each distinct item is answered once: duplicates collapse", expected: "the value the rule names" },
  "each-once": { title: "Moved and failed hold each of the 3 distinct items once", expected: "the value the rule names" },
  "earlier-moved": { title: "The earlier item is listed in moved", expected: "the value the rule names" },
  "failure-status": {
    title: "An item that cannot be moved fails with the status its cause names (404 missing, 403 no access, 400 into itself)",
    expected: "the status of its cause",
  },
  "folder-placement": { title: "A moved folder sits in its destination", expected: "in the destination" },
  "in-failed": { title: "The item is reported in failed", expected: "failed holds …" },
  "moved-and-failed": { title: "The answer holds the arrays moved and failed", expected: "{moved: [...], failed: [...]}" },
  "moved-folder": { title: "The moved record of … shows the destination as its folderId", expected: "the value the rule names" },
  "moved-order": { title: "Moved keeps the order of items", expected: "the value the rule names" },
  "not-also-moved": { title: "The item is not also in moved", expected: "moved without the failed item" },
  "not-own-child": { title: "The folder does not become a child of its own child", expected: "folder … outside …" },
  "only-sent": { title: "Moved and failed hold only items that were sent", expected: "the value the rule names" },
  order: { title: "… lists its items in the order they were sent", expected: "the value the rule names" },
  "reads-back": { title: "Workbook … reads back (E9 folderId) in …", expected: "the value the rule names" },
  "stays-put": { title: "What a refused move names stays where it was", expected: "the value the rule names" },
  "at-limit-accepted": { title: "A bulk move of exactly 100 items is accepted and moves them all", expected: "200, every item moved" },
  "nothing-moved": { title: "A refused bulk move moves none of its items", expected: "no item in the destination" },
} as const satisfies Record<string, GroupReason>;
