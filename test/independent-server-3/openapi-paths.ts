// Paths of E1..E13 plus workspace endpoints.
import { afterP, body, created201, cursorParams, depP, firstP, int, ok200, okWrapped, op, pathP, queryP, ref, str, en } from "./openapi-util.js";
import type { S } from "./openapi-util.js";

const wbP = pathP("workbookId", str({ pattern: "^[0-9]+$" }));
const offsetP = queryP("offset", int({ minimum: 0, default: 0 }));
const folderFilter = queryP("folderId", str({ pattern: "^([0-9]+|null)$" }), "Containing folder id; 0, null or empty means the workspace root.");

export function corePaths(): Record<string, S> {
  return {
    "/api/v1/deployments": {
      get: op({
        id: "listDeployments",
        summary: "E1 List deployments (newest first)",
        tags: ["deployments"],
        params: [offsetP, queryP("limit", int({ minimum: 1, maximum: 50, default: 20 }), "Above 50 is refused with 400.")],
        ok: ok200("Deployments page.", ref("DeploymentsList")),
        errors: [400],
      }),
    },
    "/api/v1/deployments/{deploymentId}": {
      put: op({
        id: "updateDeployment",
        summary: "E6 Update a deployment (partial merge)",
        tags: ["deployments"],
        params: [depP],
        body: body(ref("DeploymentUpdate")),
        ok: okWrapped("Updated settings (secrets excluded).", "DeploymentSettings"),
        errors: [400, 404, 422],
      }),
      delete: op({
        id: "deleteDeployment",
        summary: "Delete a deployment",
        tags: ["deployments"],
        params: [depP],
        ok: okWrapped("Deleted.", "DeploymentDeleted"),
        errors: [404],
      }),
    },
    "/api/v1/deployments/{deploymentId}/environments": {
      get: op({
        id: "listEnvironments",
        summary: "E2 List environments (newest first)",
        tags: ["environments"],
        params: [
          depP,
          queryP("type", en(["production", "staging", "development"])),
          offsetP,
          queryP("limit", int({ minimum: 0, maximum: 50, default: 20 }), "Slices the deprecated data only."),
          firstP,
          afterP,
        ],
        ok: ok200("Environments; items is the whole list unless first is given.", ref("EnvironmentsList")),
        errors: [400, 404],
      }),
    },
    "/api/v1/deployments/{deploymentId}/environments/{environmentId}/tokens-for-meta-sync": {
      post: op({
        id: "createMetaToken",
        summary: "E3 Create a metadata-only token",
        tags: ["environments"],
        params: [depP, pathP("environmentId")],
        body: body(ref("MetaTokenRequest")),
        ok: okWrapped("Token.", "MetaToken"),
        errors: [400, 404, 422],
      }),
    },
    "/build/api/v1/deployments/{deploymentId}/branches/staging-environment": {
      put: op({
        id: "toggleStagingEnvironment",
        summary: "E4 Enable or disable a shared branch's always-on staging environment",
        tags: ["branches"],
        params: [depP],
        body: body(ref("StagingToggleRequest")),
        ok: okWrapped("Branch.", "Branch"),
        errors: [400, 404, 422],
      }),
    },
    "/api/v1/deployments/{deploymentId}/versions": {
      get: op({
        id: "listVersions",
        summary: "E5 List versions (newest first), {items, pageInfo} variant",
        tags: ["deployments"],
        params: [depP, queryP("first", int({ minimum: 1, maximum: 50 }), "Optional; whole list when omitted."), afterP],
        ok: ok200("Versions.", ref("VersionsList")),
        errors: [400, 404],
      }),
    },
    "/api/v1/audit-logs/export": {
      get: op({
        id: "exportAuditLog",
        summary: "E7 Export audit log as CSV (newest first)",
        tags: ["audit"],
        params: [
          queryP("start", str({ format: "date" }), "ISO 8601 date (or date-time)."),
          queryP("end", str({ format: "date" }), "ISO 8601 date, inclusive."),
          queryP("search", str()),
          queryP("eventName", str()),
          queryP("userEmail", str()),
        ],
        ok: {
          "200": {
            description: "CSV attachment with columns Event, Timestamp, User Email, Deployment, IP Address, Attributes.",
            headers: { "Content-Disposition": { schema: str(), description: 'attachment; filename="audit-log-YYYY-MM-DD.csv"' } },
            content: { "text/csv": { schema: str() } },
          },
        },
        errors: [400],
      }),
    },
    "/api/v1/deployments/{deploymentId}/workbooks": {
      get: op({
        id: "listWorkbooks",
        summary: "E8 List workspace items (workbooks, reports, folders), newest first",
        tags: ["workbooks"],
        params: [depP, folderFilter, ...cursorParams],
        ok: ok200("Workbooks page.", ref("WorkbooksList")),
        errors: [400, 404],
      }),
    },
    "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}": {
      get: op({
        id: "getWorkbook",
        summary: "E9 Get a workbook",
        tags: ["workbooks"],
        params: [depP, wbP],
        ok: ok200("Workbook.", ref("Workbook")),
        errors: [404],
      }),
    },
    "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/duplicate": {
      post: op({
        id: "cloneWorkbook",
        summary: "E10 Clone a workbook",
        tags: ["workbooks"],
        params: [depP, wbP],
        body: body(ref("CloneRequest"), false),
        ok: ok200("The new workbook.", ref("Workbook")),
        errors: [400, 404, 422],
      }),
    },
    "/api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}": {
      put: op({
        id: "upsertWorkbookBySlug",
        summary: "E11 Create or update a workbook by slug",
        tags: ["workbooks"],
        params: [depP, pathP("slug")],
        body: body(ref("UpsertRequest"), false),
        ok: ok200("Created or updated workbook.", ref("Workbook")),
        errors: [400, 404, 409, 422],
      }),
    },
    "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/embed-access": {
      get: op({
        id: "getEmbedAccess",
        summary: "Read dashboard access of embed users",
        tags: ["workbooks"],
        params: [depP, wbP],
        ok: okWrapped("Access.", "EmbedAccess"),
        errors: [404],
      }),
      put: op({
        id: "putEmbedAccess",
        summary: "Change dashboard access of an embed tenant or all embed users",
        tags: ["workbooks"],
        params: [depP, wbP],
        body: body(ref("EmbedAccessUpdate")),
        ok: okWrapped("Access.", "EmbedAccess"),
        errors: [400, 404, 422],
      }),
    },
    "/api/v1/deployments/{deploymentId}/workspace/bulk-move": {
      post: op({
        id: "bulkMove",
        summary: "E12 Move workspace items in bulk",
        tags: ["workspace"],
        params: [depP],
        body: body(ref("BulkMoveRequest")),
        ok: ok200("Per-item outcome.", ref("BulkMoveResult")),
        errors: [400, 404, 422],
      }),
    },
    "/api/v1/deployments/{deploymentId}/workspace/bulk-delete": {
      post: op({
        id: "bulkDelete",
        summary: "Delete workspace items in bulk",
        tags: ["workspace"],
        params: [depP],
        body: body(ref("BulkDeleteRequest")),
        ok: ok200("Per-item outcome.", ref("BulkDeleteResult")),
        errors: [400, 404, 422],
      }),
    },
    "/api/v1/deployments/{deploymentId}/env-vars": {
      get: op({
        id: "listEnvVars",
        summary: "E13 List environment variables (name descending, secrets masked)",
        tags: ["env-vars"],
        params: [depP, ...cursorParams],
        ok: ok200("Page.", ref("EnvVarsList")),
        errors: [400, 404],
      }),
      put: op({
        id: "putEnvVars",
        summary: "Add or update environment variables by name",
        tags: ["env-vars"],
        params: [depP],
        body: body(ref("EnvVarsPut")),
        ok: ok200("The whole list after the change (secrets masked).", ref("EnvVarsList")),
        errors: [400, 404, 422],
      }),
    },
    "/api/v1/deployments/{deploymentId}/folders": {
      get: op({
        id: "listFolders",
        summary: "List folders of one level (name descending)",
        tags: ["workspace"],
        params: [depP, queryP("parentId", str({ pattern: "^([0-9]+|null)$" }), "Parent folder; omitted means the root."), ...cursorParams],
        ok: ok200("Page.", ref("FoldersList")),
        errors: [400, 404],
      }),
      post: op({
        id: "createFolder",
        summary: "Create a folder",
        tags: ["workspace"],
        params: [depP],
        body: body(ref("FolderCreate")),
        ok: created201("Folder", "getFolder", { deploymentId: "$request.path.deploymentId", folderId: "$response.body#/data/id" }),
        errors: [400, 404, 422],
      }),
    },
    "/api/v1/deployments/{deploymentId}/folders/{folderId}": {
      get: op({
        id: "getFolder",
        summary: "Get a folder",
        tags: ["workspace"],
        params: [depP, pathP("folderId", str({ pattern: "^[0-9]+$" }))],
        ok: okWrapped("Folder.", "Folder"),
        errors: [404],
      }),
      delete: op({
        id: "deleteFolder",
        summary: "Delete a folder (direct contents move to the root; refused with 400 while it has sub-folders)",
        tags: ["workspace"],
        params: [depP, pathP("folderId", str({ pattern: "^[0-9]+$" }))],
        ok: okWrapped("Deleted.", "FolderDeleted"),
        errors: [400, 404],
      }),
    },
    "/api/v1/deployments/{deploymentId}/reports": {
      get: op({
        id: "listReports",
        summary: "List reports",
        tags: ["workspace"],
        params: [
          depP,
          folderFilter,
          queryP("externalWorkbookId", str()),
          queryP("search", str()),
          queryP("sortBy", en(["createdAt", "updatedAt", "lastViewedAt", "name"]), "Default createdAt; with lastViewedAt, first/after are refused (400)."),
          queryP("sortOrder", en(["asc", "desc"]), "Default desc."),
          ...cursorParams,
        ],
        ok: ok200("Page.", ref("ReportsList")),
        errors: [400, 404],
      }),
    },
  };
}
