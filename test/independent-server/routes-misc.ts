// E7 audit export, app-config, regions and the OpenAPI document.
import { cursorPage, HttpError, ok, strAsc } from "./http-util.js";
import type { Ctx, Route } from "./router.js";
import { buildOpenApi } from "./openapi.js";
import type { AuditRow } from "./store.js";

function parseBound(raw: string | null, name: string, endOfDay: boolean): number | undefined {
  if (raw === null || raw.trim() === "") return undefined;
  const v = raw.trim();
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(v);
  const t = Date.parse(dateOnly ? `${v}T00:00:00Z` : v);
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(t)) throw new HttpError(422, `${name} must be an ISO 8601 date`);
  return dateOnly && endOfDay ? t + 86_400_000 - 1 : t;
}

const q = (s: string): string => `"${s.replace(/"/g, '""')}"`;

function csvLine(cells: string[]): string {
  return cells.map(q).join(",") + "\r\n";
}

function exportAudit({ st, query }: Ctx) {
  const start = parseBound(query.get("start"), "start", false);
  const end = parseBound(query.get("end"), "end", true);
  if (start !== undefined && end !== undefined && start > end) throw new HttpError(422, "start must not be after end");
  const search = (query.get("search") ?? "").trim().toLowerCase();
  const eventName = (query.get("eventName") ?? "").trim().toLowerCase();
  const userEmail = (query.get("userEmail") ?? "").trim().toLowerCase();
  const rows = st.audit.filter((r: AuditRow) => {
    const t = r.occurredAt.getTime();
    if (start !== undefined && t < start) return false;
    if (end !== undefined && t > end) return false;
    if (eventName && r.eventName.toLowerCase() !== eventName) return false;
    if (userEmail && r.userEmail.toLowerCase() !== userEmail) return false;
    if (search && !`${r.eventName} ${JSON.stringify(r.data)}`.toLowerCase().includes(search)) return false;
    return true;
  });
  let csv = csvLine(["id", "occurredAt", "eventName", "userEmail", "userName", "ipAddress", "data"]);
  for (const r of rows) csv += csvLine([r.id, r.occurredAt.toISOString(), r.eventName, r.userEmail, r.userName, r.ipAddress, JSON.stringify(r.data)]);
  return {
    status: 200,
    raw: csv,
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`,
    },
  };
}

const REGIONS = [
  { id: "eu-central-1", name: "Frankfurt", cloudProvider: "aws", default: false },
  { id: "us-east-1", name: "N. Virginia", cloudProvider: "aws", default: true },
  { id: "europe-west3", name: "Frankfurt (GCP)", cloudProvider: "gcp", default: false },
  { id: "us-central1", name: "Iowa", cloudProvider: "gcp", default: false },
  { id: "ap-southeast-2", name: "Sydney", cloudProvider: "aws", default: false },
].sort((a, b) => strAsc(a.id, b.id));

const APP_CONFIG = {
  appTheme: { primaryColor: "#3b5bdb", mode: "light" },
  applyThemeGlobally: false,
  creatorMode: false,
  embedding: { signedEmbeddingEnabled: true, allowedOrigins: [] as string[] },
  sheetsUi: { enabled: false },
  timezoneSettings: { defaultTimezone: "UTC", allowUserOverride: true },
};

let specCache: Record<string, unknown> | undefined;

export const miscRoutes: Route[] = [
  { method: "GET", path: "/api/v1/audit-logs/export", style: "platform", handler: exportAudit },
  { method: "GET", path: "/api/v1/app-config", style: "platform", handler: () => ok(APP_CONFIG) },
  {
    method: "GET",
    path: "/api/v1/regions",
    style: "control",
    handler: ({ query }) => {
      const page = cursorPage(REGIONS, (r) => r.id, strAsc, query);
      return ok({ items: page.items, pageInfo: page.pageInfo, data: page.items });
    },
  },
  {
    method: "GET",
    path: "/api/v1/spec",
    style: "platform",
    handler: () => ok((specCache ??= buildOpenApi())),
  },
];
