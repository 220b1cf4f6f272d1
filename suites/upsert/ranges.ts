import type { RangeCells } from "../../core/api/rule-ranges.js";

/** Where the stated rules the upsert checks cover apply, cell by cell (RuleRange, core/api/rule-ranges.ts); assembled by suites/ranges.ts. */
export const upsertRanges: RangeCells = {
  "E11 rule 2": [
    { where: "name omitted", checks: ["upsert.update.omitted-field-kept", "upsert.update.meta-only-keeps-name"] },
    { where: "folderId omitted (workbook in a folder)", checks: ["upsert.update.omitted-field-kept"] },
    { where: "meta omitted", checks: ["upsert.update.omitted-field-kept", "upsert.update.name-only-keeps-meta"] },
    { where: "meta keys not sent again", checks: ["upsert.meta.merge-keeps-keys", "upsert.meta.merge-any"] },
    { where: "meta keys sent again", checks: ["upsert.meta.merge-replaces-sent-keys", "upsert.meta.merge-any"] },
    {
      where: "meta.dashboardDraft (validated)",
      checks: ["upsert.draft.bad-widget-type-rejected", "upsert.draft.widget-without-position-rejected", "upsert.negative.broken-draft"],
    },
  ],
  "Authentication 4": [
    { where: "E11 update, caller without edit access", checks: ["upsert.access.update-needs-edit"] },
    { where: "E11 with folderId, caller without edit access to the destination", checks: ["upsert.access.move-needs-destination-edit"] },
    { where: "E11 with folderId, caller with edit and without manage access to the workbook", checks: ["upsert.access.move-needs-manage"] },
    { where: "E11 create with folderId, caller with read access only to the destination", checks: ["upsert.access.create-into-read-only-folder"] },
  ],
  "Limits: app entries stored": [
    { where: "sent: E11 meta.dashboardDraft", checks: ["upsert.draft.app-entry-over-255-not-stored", "upsert.draft.app-entry-over-255-4xx"] },
    { where: "stored: E9 dashboardDraft (and meta.dashboardDraft)", checks: ["upsert.draft.app-entry-over-255-not-stored"] },
  ],
  "Limits: at and past each": [
    { where: "app entry, 255 characters (kept whole)", checks: ["upsert.draft.app-entry-255-kept"] },
    { where: "app entry, 256 characters (never stored)", checks: ["upsert.draft.app-entry-over-255-not-stored", "upsert.draft.app-entry-over-255-4xx"] },
  ],
  "Resources / Workbook": [{ where: "E11 answer", checks: ["upsert.answer.is-the-stored-workbook"] }],
  "E11 rule 5": [
    { where: "the answers of a race (200 or 409 with the code)", checks: ["upsert.concurrency.conflict-answers"] },
    { where: "the workbooks the race left (E9 meta)", checks: ["upsert.concurrency.conflict-not-applied"] },
    { where: "the retry", checks: ["upsert.concurrency.conflict-retry-succeeds"] },
  ],
  "Errors 2": [
    { where: "E11, 409 upsert_branch_changed", checks: ["upsert.concurrency.conflict-not-applied"] },
    { where: "E11, no edit access (4xx)", checks: ["upsert.access.update-needs-edit", "upsert.access.move-needs-destination-edit"] },
    { where: "E11, an invalid meta.dashboardDraft", checks: ["upsert.draft.bad-widget-type-rejected", "upsert.draft.widget-without-position-rejected"] },
  ],
};
