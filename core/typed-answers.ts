import type { SpecEndpoint } from "./endpoints.js";
import type { SchemaName } from "./schemas.js";

/**
 * The answers whose shape the spec types: each spec'd route and status, and its schema. Answers of
 * E14 endpoints (shapes not shown) and errors the spec gives no body for are not typed.
 */
const TYPED: { method: string; path: RegExp; status: number; schema: SchemaName; endpoint: SpecEndpoint }[] = [
  { method: "GET", path: /^\/api\/v1\/deployments$/, status: 200, schema: "DeploymentsListResponse", endpoint: "E1" },
  { method: "GET", path: /^\/api\/v1\/deployments\/[^/]+\/environments$/, status: 200, schema: "EnvironmentsListResponse", endpoint: "E2" },
  { method: "POST", path: /^\/api\/v1\/deployments\/[^/]+\/environments\/[^/]+\/tokens-for-meta-sync$/, status: 200, schema: "MetadataTokenResponse", endpoint: "E3" },
  { method: "PUT", path: /^\/build\/api\/v1\/deployments\/[^/]+\/branches\/staging-environment$/, status: 200, schema: "BranchResponse", endpoint: "E4" },
  { method: "GET", path: /^\/api\/v1\/deployments\/[^/]+\/versions$/, status: 200, schema: "VersionsListResponse", endpoint: "E5" },
  { method: "GET", path: /^\/api\/v1\/deployments\/[^/]+\/workbooks$/, status: 200, schema: "WorkbooksListResponse", endpoint: "E8" },
  { method: "GET", path: /^\/api\/v1\/deployments\/[^/]+\/workbooks\/[^/]+$/, status: 200, schema: "Workbook", endpoint: "E9" },
  { method: "POST", path: /^\/api\/v1\/deployments\/[^/]+\/workbooks\/[^/]+\/duplicate$/, status: 200, schema: "Workbook", endpoint: "E10" },
  { method: "PUT", path: /^\/api\/v1\/deployments\/[^/]+\/workbooks\/by-slug\/[^/]*$/, status: 200, schema: "Workbook", endpoint: "E11" },
  { method: "PUT", path: /^\/api\/v1\/deployments\/[^/]+\/workbooks\/by-slug\/[^/]*$/, status: 409, schema: "ConflictError", endpoint: "E11" },
  { method: "POST", path: /^\/api\/v1\/deployments\/[^/]+\/workspace\/bulk-move$/, status: 200, schema: "BulkMoveResponse", endpoint: "E12" },
  { method: "GET", path: /^\/api\/v1\/deployments\/[^/]+\/env-vars$/, status: 200, schema: "EnvVarsListResponse", endpoint: "E13" },
];

/** The schema the spec gives this answer, if it types it. */
export function typedAnswer(method: string, path: string, status: number): { schema: SchemaName; endpoint: SpecEndpoint } | undefined {
  const t = TYPED.find((r) => r.method === method && r.status === status && r.path.test(path));
  return t && { schema: t.schema, endpoint: t.endpoint };
}
