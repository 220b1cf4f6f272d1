import { Readable } from "node:stream";
import type { Behaviour } from "../behaviour.js";
import { HttpError, type Route } from "../http.js";

type AuditFilter = Parameters<Behaviour["auditRowMatches"]>[1];

/** E7 query: all optional; start and end are ISO 8601 dates, compared as whole days. */
function filterOf(b: Behaviour, query: URLSearchParams): AuditFilter {
  const text = (name: string) => query.get(name) || undefined;
  const day = (name: string) => {
    const raw = text(name);
    if (raw === undefined) return undefined;
    if (!b.isAuditDate(raw)) throw new HttpError(400, `${name} must be an ISO 8601 date (YYYY-MM-DD)`);
    return raw.slice(0, 10);
  };
  return { eventName: text("eventName"), userEmail: text("userEmail"), startDay: day("start"), endDay: day("end"), search: text("search") };
}

/** One CSV line of cells, each written as the behaviour writes a cell. */
function csvLine(b: Behaviour, cells: string[]): string {
  return cells.map((c) => b.csvCell(c)).join(",") + "\r\n";
}

export const auditRoutes: Route[] = [
  {
    operation: "exportAuditLog",
    handler: (req, app) => {
      if (!app.store.auditFeatureEnabled) throw new HttpError(403, "the audit log feature is not enabled on this plan");
      if (!app.b.mayExportAuditLog(req.user)) throw new HttpError(403, "exporting the audit log takes the AuditLogManage permission");
      const filter = filterOf(app.b, req.query);
      // A snapshot: events recorded while this export streams belong to the next one.
      const events = app.store.audit.filter((e) => app.b.auditRowMatches(e, filter));
      const columns = app.b.auditColumns();
      const fields = columns.map(([, field]) => field);
      function* lines() {
        yield csvLine(
          app.b,
          columns.map(([header]) => header),
        );
        for (const e of events) yield csvLine(app.b, app.b.auditRowCells(e, fields));
      }
      // A CSV file, streamed as an attachment.
      const headers = {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`,
      };
      return { status: 200, headers, stream: Readable.from(lines(), { objectMode: false }) };
    },
  },
];
