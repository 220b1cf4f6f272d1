/**
 * The endpoints whose shape the spec shows (E1-E13), each with the check that owns it: the one
 * that fails when the endpoint does not answer as the spec says. A check that only builds its
 * scenario on an endpoint is blocked by that owner instead of failing, so a missing endpoint
 * reads as one root failure and N blocked checks. E14 names endpoints whose shape is not shown.
 */
export type SpecEndpoint = "E1" | "E2" | "E3" | "E4" | "E5" | "E6" | "E7" | "E8" | "E9" | "E10" | "E11" | "E12" | "E13";
export type Endpoint = SpecEndpoint | "E14";

export interface EndpointInfo {
  method: string;
  path: string;
  /** The id of the check that fails when this endpoint answers 404, 5xx or garbage. */
  root: string;
}

export const specEndpoints: Record<SpecEndpoint, EndpointInfo> = {
  E1: { method: "GET", path: "/api/v1/deployments", root: "deployments.list.schema" },
  E2: { method: "GET", path: "/api/v1/deployments/{deploymentId}/environments", root: "environments.list.schema" },
  E3: { method: "POST", path: "/api/v1/deployments/{deploymentId}/environments/{environmentId}/tokens-for-meta-sync", root: "tokens.create.schema" },
  E4: { method: "PUT", path: "/build/api/v1/deployments/{deploymentId}/branches/staging-environment", root: "staging.enable.by-name" },
  E5: { method: "GET", path: "/api/v1/deployments/{deploymentId}/versions", root: "versions.list.schema" },
  E6: { method: "PUT", path: "/api/v1/deployments/{deploymentId}", root: "deployment-update.version.listed-forms" },
  E7: { method: "GET", path: "/api/v1/audit-logs/export", root: "audit.export.content-type-csv" },
  E8: { method: "GET", path: "/api/v1/deployments/{deploymentId}/workbooks", root: "workbooks.list.schema" },
  E9: { method: "GET", path: "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}", root: "workbooks.get.schema" },
  E10: { method: "POST", path: "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/duplicate", root: "clone.answer.is-the-stored-clone" },
  E11: { method: "PUT", path: "/api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}", root: "upsert.create.absent-slug-creates" },
  E12: { method: "POST", path: "/api/v1/deployments/{deploymentId}/workspace/bulk-move", root: "bulk-move.response.schema" },
  E13: { method: "GET", path: "/api/v1/deployments/{deploymentId}/env-vars", root: "env-vars.list.schema" },
};
