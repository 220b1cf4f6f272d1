import { specEndpoints } from "./endpoints.js";
import { operationKey } from "./served-document.js";

/** An operation the spec names, by method and path (`{x}` any placeholder). */
export interface SpecOperation {
  spec: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
}

/** E1–E13: the operations whose rules the spec states (core/endpoints.ts names them). */
export const SPECIFIED: SpecOperation[] = Object.entries(specEndpoints).map(([spec, e]) => ({ spec, method: e.method as SpecOperation["method"], path: e.path }));

const d = "/api/v1/deployments/{deploymentId}";
const b = "/build/api/v1/deployments/{deploymentId}";

/**
 * E14's table, one operation a line where the table names the method and the path (the rows that
 * say "CRUD" or `/...` name no path and are left out). Probed to list what a server serves beyond
 * its document; never called with a valid key unless safe (core/undocumented.ts).
 */
export const NAMED_E14: SpecOperation[] = [
  ["GET", "/api/v1/spec"],
  ["GET", "/api/v1/app-config"],
  ["GET", `${d}/settings`],
  ["DELETE", d],
  ["PUT", `${d}/env-vars`],
  ["GET", `${d}/build-status`],
  ["GET", `${d}/logs`],
  ["GET", `${d}/pods`],
  ["POST", `${d}/creation-step/advance`],
  ["POST", `${d}/creation-step/reset`],
  ["GET", "/api/v1/regions/"],
  ["POST", "/build/api/v1/deployments/"],
  ["GET", `${b}/data-model/files`],
  ["PUT", `${b}/data-model/files`],
  ["DELETE", `${b}/data-model/files`],
  ["POST", `${b}/data-model/files/rename`],
  ["GET", `${b}/data-model/validate`],
  ["POST", `${b}/data-model/upload/start`],
  ["POST", `${b}/data-model/upload/file`],
  ["POST", `${b}/data-model/upload/finish`],
  ["GET", `${b}/data-model/file-hashes`],
  ["POST", `${b}/dev-mode`],
  ["DELETE", `${b}/dev-mode`],
  ["GET", `${b}/branches`],
  ["POST", `${b}/branches`],
  ["DELETE", `${b}/branches`],
  ["POST", `${b}/commit`],
  ["POST", `${b}/pull`],
  ["POST", `${b}/merge`],
  ["POST", `${b}/merge-to-default`],
  ["POST", `${b}/github/connect`],
  ["POST", `${d}/dbt-sync`],
  ["GET", `${d}/dbt-sync`],
  ["GET", `${d}/dbt-sync/{syncJobId}`],
  ["DELETE", `${d}/dbt-sync/{syncJobId}`],
  ["GET", `${d}/dbt-sync/{syncJobId}/result`],
  ["GET", `${d}/dbt-sync/{syncJobId}/logs`],
  ["POST", `${d}/workspace/bulk-delete`],
  ["PUT", `${d}/reports/by-public-id/{publicId}`],
  ["PUT", `${d}/reports/{reportId}/connect-workbook`],
  ["DELETE", `${d}/reports/{reportId}/connect-workbook`],
  ["PUT", `${d}/reports/{reportId}/refresh`],
  ["GET", `${d}/reports`],
  ["GET", `${d}/folders`],
  ["GET", `${d}/workbooks/{workbookId}/embed-access`],
  ["PUT", `${d}/workbooks/{workbookId}/embed-access`],
  ["PATCH", "/api/v1/embed/dashboard/{publicId}"],
  ["POST", "/api/v1/embed/dashboard/{publicId}/python-run"],
  ["GET", "/api/v1/users"],
  ["POST", "/api/v1/users"],
  ["GET", "/api/v1/users/{id}"],
  ["PUT", "/api/v1/users/{id}"],
  ["POST", "/api/v1/users/bulk"],
  ["GET", "/api/v1/user-attributes/"],
  ["POST", "/api/v1/user-attributes/"],
  ["GET", "/api/v1/tenant/settings"],
  ["PUT", "/api/v1/tenant/settings"],
  ["GET", "/api/v1/oauth-integrations"],
  ["GET", "/api/v1/user-oauth-tokens"],
  ["GET", "/api/v1/oidc-token-configs"],
  ["GET", "/api/v1/github/status"],
  ["GET", "/api/v1/github/installations"],
  ["GET", "/api/v1/github/installations/{installationId}/repositories"],
  ["GET", "/api/v1/github/repositories/{owner}/{repo}/branches"],
].map(([method, path]) => ({ spec: "E14", method: method as SpecOperation["method"], path }));

/** The spec section of an operation key (`E9`), E14 for what only its table names, or undefined. */
export function specSectionOf(key: string): string | undefined {
  return SPECIFIED.find((o) => operationKey(o.method, o.path) === key)?.spec ?? (NAMED_E14.some((o) => operationKey(o.method, o.path) === key) ? "E14" : undefined);
}
