import type { GroupReason } from "../../core/model/reasons.js";

/** What the audit checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const auditReasons = {
  attachment: { title: "The export is sent as an attachment", expected: "content-disposition: attachment; filename=…" },
  "export-answered": { title: "The audit log export answers 200 with a CSV file", expected: "200 with a CSV file" },
  "end-day-dropped": { title: "A range of one day (start = end) keeps that day's events", expected: "every row of that day" },
  "filtered-empty": { title: "The … export is empty, though the unfiltered export holds matching rows", expected: "at least one row" },
  "header-row": { title: "The first row is a header, not an event", expected: "named columns" },
  "other-events": { title: '…, a part of the event name "…", returns events of other types', expected: 'no event other than "…"' },
  "unquoted-cell": {
    title: "A cell holding a comma or a double quote is quoted: its row has as many cells as the header",
    expected: "as many cells as the header",
  },
  "cell-cut": { title: "A name with a comma or a double quote reads back whole in one cell", expected: "the name whole in one cell" },
  ragged: { title: "Row … has … cells, the header …", expected: "column names" },
  "partial-email-matched": { title: "A prefix, a part or a case variant of a user's email keeps no other user's events", expected: "no row of another user" },
  "range-row-dropped": { title: "A date range keeps every event of the days between start and end", expected: "every row of those days" },
  "row-outside-filter": { title: "Only rows that meet …", expected: "at least one row" },
  "unnamed-column": { title: "Every column of the header row has a name", expected: "a header row" },
} as const satisfies Record<string, GroupReason>;
