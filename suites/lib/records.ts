import type { SchemaName } from "../../core/api/schemas.js";

const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);

/**
 * The resource records of a typed answer, where the spec puts them: a rule about a field of a
 * resource reads it there, never inside an open object (a workbook's `meta`, a token's
 * security_context), where a client may store any key.
 */
export function recordsOf(schema: SchemaName, body: any): any[] {
  switch (schema) {
    case "DeploymentsListResponse":
      return [...list(body?.data?.deployments), ...list(body?.data), ...list(body?.items)];
    case "MetadataTokenResponse":
      return body?.data && typeof body.data === "object" ? [body.data] : [];
    case "WorkbooksListResponse":
    case "EnvironmentsListResponse":
    case "EnvVarsListResponse":
    case "VersionsListResponse":
      return [...list(body?.items), ...list(body?.data), ...list(body?.data?.environments)];
    case "BulkMoveResponse":
      return list(body?.moved);
    case "Workbook":
    case "BranchResponse":
      return body && typeof body === "object" ? [body] : [];
    default:
      return [];
  }
}

/** The dashboard configs of a workbook record: its draft, its published config, its published dashboard's config. */
export function dashboardConfigsOf(record: any): any[] {
  return [record?.dashboardDraft, record?.dashboardPublished, record?.publishedDashboard?.config].filter((c) => c && typeof c === "object");
}
