import type { GroupReason } from "../../core/model/reasons.js";

/** What the upsert checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const upsertReasons = {
  "valid-draft-taken": { title: "A dashboard draft the Resources allow is taken", expected: "a 2xx" },
  "created-deployment": { title: "The created workbook is in the deployment asked", expected: "the value the rule names" },
  "created-type": { title: "The created item is a workbook", expected: "the value the rule names" },
  "entry-stored": { title: "An app entry at the limit is stored", expected: "a 2xx answer, the entry stored" },
  "entry-truncated": { title: "An entry of … characters, the start of the one sent", expected: "no entry over … characters" },
  "holder-unchanged": { title: "The workbook holding the slug keeps its name, meta, draft and folder", expected: "the value the rule names" },
  merged: { title: "Meta after sending {a: 1}, then {b: 2}", expected: "the value the rule names" },
  "meta-kept": { title: "Meta after an update that sent only name", expected: "the value the rule names" },
  "meta-merged": { title: "After upsert … of …, meta is the merge of what was sent (…)", expected: "the value the rule names" },
  "name-kept": { title: "Name after an update that sent only meta", expected: "the value the rule names" },
  "no-change": { title: "The workbook after the same request was applied again", expected: "the value the rule names" },
  "own-workbook": { title: "A slug that is a prefix of a stored slug, or extends one, reaches a workbook of its own", expected: "another id" },
  "one-holder": { title: "The workbooks the race answered with that still exist: only the one the slug reaches", expected: "the value the rule names" },
  "same-id": { title: "The id answered for an existing slug", expected: "the value the rule names" },
  "slug-per-deployment": {
    title: "The slug of a workbook of one deployment creates a workbook of its own in another",
    expected: "a 2xx, a new workbook of that deployment",
  },
  "slug-reaches": { title: "…, trimmed and lowercased, is it reaches workbook …", expected: "the value the rule names" },
  "tabs-converted": { title: "The draft is kept with each TABS_CONTAINER as a tabbed CONTAINER, but …", expected: "the value the rule names" },
  "updated-at-kept": { title: "UpdatedAt after a request that changed nothing", expected: "the value the rule names" },
  "widget-kept": { title: "The sent widget is kept in the dashboard draft", expected: "the widget sent" },
  "conflict-applied": { title: "An upsert answered 409 upsert_branch_changed is not applied", expected: "the workbook as it was" },
  "entry-at-limit-accepted": { title: "A dashboard app entry of exactly 255 characters is accepted", expected: "a 2xx" },
  "entry-kept": { title: "A dashboard app entry of exactly 255 characters is kept whole", expected: "the entry as sent" },
  "name-as-sent": { title: 'An update that sent name "" and was taken reads back with the empty name', expected: '""' },
  "folder-as-sent": { title: "An update whose folderId was taken reads back in that folder", expected: "the folderId sent" },
  "number-edges-held": { title: "meta holding numbers at a double's edges holds each number as sent", expected: "each number as sent" },
  "refused-unchanged": { title: "An update refused with a 4xx leaves the workbook's field as it was", expected: "the value before the request" },
} as const satisfies Record<string, GroupReason>;
