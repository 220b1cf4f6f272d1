import { cleanBehaviour } from "../behaviour.js";
import { ignoring } from "./kit/audit.js";
import type { Fault } from "../http.js";

/** The faults of the group audit (suites/audit/): each makes a check of it fail, for the reason its `because` names. */
export const auditFaults: Fault[] = [
  {
    name: "audit-search-skips-details",
    breaks: "E7 (search: full-text over event data)",
    description: "search looks in every column but the event's details: a word only the details hold finds nothing",
    because: { "audit.filter.search-event-data": "filtered-empty" },
    behaviour: {
      auditRowMatches: (e, f) =>
        cleanBehaviour.auditRowMatches(e, { ...f, search: undefined }) &&
        (f.search === undefined ||
          [e.timestamp, e.userEmail, e.eventName, e.deploymentName, e.ipAddress].join("\n").toLowerCase().includes(f.search.toLowerCase())),
    },
  },
  {
    name: "audit-export-needs-ai-bi-role",
    breaks: "Authentication 4",
    description: "the audit export takes the AuditLogManage permission and the AI BI User role: a holder below that role is refused",
    because: { "audit.access.granted-with-permission": "status" },
    behaviour: { mayExportAuditLog: (user) => user.permissions.has("AuditLogManage") && user.aiBiUser },
  },
  {
    name: "audit-export-json-content-type",
    breaks: "E7 (a CSV file)",
    description: "the CSV export is labelled application/json",
    because: { "audit.export.content-type-csv": "content-type" },
    routes: ["E7"],
    handle: async ({ next }) => {
      const reply = await next();
      return { ...reply, headers: { ...reply.headers, "content-type": "application/json" } };
    },
  },
  {
    name: "audit-export-inline",
    breaks: "E7 (streamed as an attachment)",
    description: "the export has no content-disposition, so it is shown inline instead of downloaded",
    because: { "audit.export.attachment": "attachment" },
    routes: ["E7"],
    handle: async ({ next }) => {
      const reply = await next();
      const { "content-disposition": _attachment, ...inline } = reply.headers ?? {};
      return { ...reply, headers: inline };
    },
  },
  {
    name: "audit-csv-comma-left-bare",
    breaks: "E7 (a CSV file)",
    description:
      "a cell is quoted only when it holds a double quote or a line break: one with a comma but no quote is written bare, and its row has a cell too many",
    because: { "audit.export.quoted-cells": "unquoted-cell" },
    behaviour: { csvCell: (cell) => (/["\r\n]/.test(cell) ? cleanBehaviour.csvCell(cell) : cell) },
  },
  {
    name: "audit-csv-commas-replaced",
    breaks: "E7 (a CSV file)",
    description: "commas in a cell are replaced by semicolons rather than the cell quoted: a name with a comma reads back changed",
    because: { "audit.export.quoted-cells": "cell-cut" },
    behaviour: { csvCell: (cell) => cleanBehaviour.csvCell(cell.replace(/,/g, ";")) },
  },
  {
    name: "audit-ragged-rows",
    breaks: "E7 (a CSV file)",
    description: "rows whose details hold a hidden value lose that column, so they are one cell short",
    because: { "audit.export.csv-shape": "ragged" },
    behaviour: { auditRowCells: (e, fields) => cleanBehaviour.auditRowCells(e, fields).slice(0, e.details.includes("[HIDDEN]") ? -1 : undefined) },
  },
  {
    name: "audit-event-name-substring",
    breaks: "E7 (eventName: event type filter)",
    description: "eventName keeps every event whose name contains the value, not only that event type",
    because: { "audit.filter.event-name-exact": "other-events" },
    behaviour: { auditRowMatches: (e, f) => ignoring("eventName")(e, f) && (f.eventName === undefined || e.eventName.includes(f.eventName)) },
  },
  {
    name: "audit-event-name-filter-ignored",
    breaks: "E7 (eventName: event type filter)",
    description: "eventName is ignored: every event comes back",
    because: { "audit.filter.event-name": "row-outside-filter" },
    behaviour: { auditRowMatches: ignoring("eventName") },
  },
  {
    name: "audit-user-filter-ignored-beside-event-name",
    breaks: "E7 (userEmail filter)",
    description: "userEmail is ignored whenever eventName is given too: that type's events of every user are exported",
    because: { "audit.filter.combined": "row-outside-filter" },
    behaviour: { auditRowMatches: (e, f) => cleanBehaviour.auditRowMatches(e, f.eventName === undefined ? f : { ...f, userEmail: undefined }) },
  },
  {
    name: "audit-search-ignored-beside-event-name",
    breaks: "E7 (search: full text)",
    description: "search is ignored whenever eventName is given too: every event of that type is exported",
    because: { "audit.filter.search-with-event-name": "row-outside-filter" },
    behaviour: { auditRowMatches: (e, f) => cleanBehaviour.auditRowMatches(e, f.eventName === undefined ? f : { ...f, search: undefined }) },
  },
  {
    name: "audit-user-filter-ignored",
    breaks: "E7 (userEmail filter)",
    description: "userEmail is ignored: every user's events are exported",
    because: { "audit.filter.user-email": "row-outside-filter" },
    behaviour: { auditRowMatches: ignoring("userEmail") },
  },
  {
    name: "audit-date-range-ignored",
    breaks: "E7 (start, end)",
    description: "start and end are validated but not applied",
    because: { "audit.filter.date-range": "row-outside-filter" },
    behaviour: { auditRowMatches: ignoring("startDay", "endDay") },
  },
  {
    name: "audit-range-keeps-its-ends-only",
    breaks: "E7 (start, end); Events (filtered by date range)",
    description: "a date range keeps the events of its start day and of its end day only, not of the days between",
    because: { "audit.filter.date-range-complete": "range-row-dropped" },
    behaviour: {
      auditRowMatches: (e, f) =>
        ignoring("startDay", "endDay")(e, f) &&
        (f.startDay === undefined || f.endDay === undefined ? cleanBehaviour.auditRowMatches(e, f) : [f.startDay, f.endDay].includes(e.timestamp.slice(0, 10))),
    },
  },
  {
    name: "audit-end-day-excluded",
    breaks: "E7 (end: an ISO 8601 date, its day counted in: SHOULD)",
    description: "a date-only end is read as 00:00 of that day: the end day's own events are left out",
    because: { "audit.filter.end-day-included": "end-day-dropped" },
    behaviour: {
      auditRowMatches: (e, f) => cleanBehaviour.auditRowMatches(e, f) && (f.endDay === undefined || e.timestamp.slice(0, 10) < f.endDay),
    },
  },
  {
    name: "audit-end-ignored",
    breaks: "E7 (end)",
    description: "end is ignored: the export runs from start to now (start is kept)",
    because: { "audit.filter.date-range": "row-outside-filter" },
    behaviour: { auditRowMatches: ignoring("endDay") },
  },
  {
    name: "audit-start-alone-ignored",
    breaks: "E7 (start, end: each optional)",
    description: "start is applied only beside end: start alone exports every event, the older ones too",
    because: { "audit.filter.date-range": "row-outside-filter" },
    behaviour: { auditRowMatches: (e, f) => (f.endDay === undefined ? ignoring("startDay") : cleanBehaviour.auditRowMatches)(e, f) },
  },
  {
    name: "audit-end-alone-ignored",
    breaks: "E7 (start, end: each optional)",
    description: "end is applied only beside start: end alone exports every event, the later ones too",
    because: { "audit.filter.date-range": "row-outside-filter" },
    behaviour: { auditRowMatches: (e, f) => (f.startDay === undefined ? ignoring("endDay") : cleanBehaviour.auditRowMatches)(e, f) },
  },
  {
    name: "audit-search-ignored",
    breaks: "E7 (search)",
    description: "search is ignored: every event is exported",
    because: { "audit.filter.search": "row-outside-filter", "audit.filter.search-with-event-name": "row-outside-filter" },
    behaviour: { auditRowMatches: ignoring("search") },
  },
  {
    name: "audit-dates-not-validated",
    breaks: "E7 (start, end are ISO 8601 dates)",
    description: "a start or end that is not a date is accepted (and matches nothing) instead of rejected",
    because: { "audit.filter.invalid-date-rejected": "client-error" },
    behaviour: { isAuditDate: () => true },
  },
  {
    name: "audit-permission-not-checked",
    breaks: "Authentication 4 (AuditLogManage)",
    description: "any caller may export the audit log",
    because: { "audit.access.denied-without-permission": "client-error", "audit.access.denied-is-403": "status" },
    behaviour: { mayExportAuditLog: () => true },
  },
  {
    name: "audit-user-email-substring",
    breaks: "E7 (userEmail filter)",
    description: "userEmail matches every email that contains the value, not the user's email",
    because: { "audit.filter.user-email": "partial-email-matched" },
    behaviour: {
      auditRowMatches: (e, f) =>
        cleanBehaviour.auditRowMatches(e, { ...f, userEmail: undefined }) &&
        (f.userEmail === undefined || e.userEmail.toLowerCase().includes(f.userEmail.toLowerCase())),
    },
  },
  {
    name: "audit-event-name-suffix",
    breaks: "E7 (eventName: event type filter)",
    description: "eventName matches every event type that ends with the value (a LIKE '%value' pattern): `in` keeps the `Logged in` events",
    because: { "audit.filter.event-name-classes": "other-events" },
    behaviour: {
      auditRowMatches: (e, f) =>
        cleanBehaviour.auditRowMatches(e, { ...f, eventName: undefined }) && (f.eventName === undefined || e.eventName.endsWith(f.eventName)),
    },
  },
  {
    name: "audit-search-unindexed-unfiltered",
    breaks: "E7 (search: full-text over event data)",
    description: "a search value that is no whole word of any event is not in the full-text index, and the export falls back to every row",
    because: { "audit.filter.search-classes": "row-outside-filter" },
    routes: ["E7"],
    handle: ({ req, app, next }) => {
      const search = req.query.get("search")?.toLowerCase();
      const words = (e: object) =>
        Object.values(e)
          .join(" ")
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u);
      if (search && !app.store.audit.some((e) => words(e).includes(search))) req.query.delete("search");
      return next();
    },
  },
];
