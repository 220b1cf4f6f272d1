// Paths of the E14 endpoints this server implements.
import { body, created201, cursorParams, depP, en, ok200, okWrapped, op, pathP, queryP, ref, str, anyObj } from "./openapi-util.js";
import type { S } from "./openapi-util.js";

const B = "/build/api/v1/deployments/{deploymentId}";
const D = "/api/v1/deployments/{deploymentId}";
const branchQ = queryP("branchName", str(), "Defaults to your dev-mode branch, else the production branch.");
const jobP = pathP("syncJobId", str({ pattern: "^[0-9]+$" }));
const idP = pathP("id", str({ pattern: "^[0-9]+$" }));
const depLink = { deploymentId: "$request.path.deploymentId" };

export function extraPaths(): Record<string, S> {
  return {
    "/api/v1/spec": {
      get: op({ id: "getSpec", summary: "This OpenAPI 3.1 document", tags: ["meta"], ok: ok200("OpenAPI document.", anyObj()), errors: [] }),
    },
    "/api/v1/app-config": {
      get: op({ id: "getAppConfig", summary: "App configuration", tags: ["meta"], ok: okWrapped("App config.", "AppConfig"), errors: [] }),
    },
    "/api/v1/regions/": {
      get: op({
        id: "listRegions",
        summary: "Regions available to the tenant (id descending); also served without the trailing slash",
        tags: ["meta"],
        params: cursorParams,
        ok: ok200("Page.", ref("RegionsList")),
        errors: [400],
      }),
    },
    [`${D}/settings`]: {
      get: op({
        id: "getDeploymentSettings",
        summary: "Deployment settings, secrets excluded",
        tags: ["deployments"],
        params: [depP],
        ok: okWrapped("Settings.", "DeploymentSettings"),
        errors: [404],
      }),
    },
    [`${D}/creation-step/advance`]: {
      post: op({
        id: "advanceCreationStep",
        summary: "Advance the setup wizard (409 when complete)",
        tags: ["deployments"],
        params: [depP],
        ok: okWrapped("Step.", "CreationStep"),
        errors: [404, 409],
      }),
    },
    [`${D}/creation-step/reset`]: {
      post: op({
        id: "resetCreationStep",
        summary: "Reset the setup wizard",
        tags: ["deployments"],
        params: [depP],
        ok: okWrapped("Step.", "CreationStep"),
        errors: [404],
      }),
    },
    "/build/api/v1/deployments/": {
      post: op({
        id: "createDeployment",
        summary: "Create a deployment (also served without the trailing slash)",
        tags: ["deployments"],
        body: body(ref("DeploymentCreate")),
        ok: created201("DeploymentSettings", "getDeploymentSettings", { deploymentId: "$response.body#/data/id" }),
        errors: [422],
      }),
    },
    [`${D}/build-status`]: {
      get: op({
        id: "getBuildStatus",
        summary: "Build state of a branch",
        tags: ["operations"],
        params: [depP, queryP("branchName", str(), "Defaults to the production branch.")],
        ok: okWrapped("Status.", "BuildStatus"),
        errors: [404],
      }),
    },
    [`${D}/logs`]: {
      get: op({
        id: "listLogs",
        summary: "Container logs (newest first)",
        tags: ["operations"],
        params: [depP, queryP("source", en(["production", "dev"])), queryP("container", en(["INIT", "MAIN", "vector", "api-proxy", "cube"])), ...cursorParams],
        ok: ok200("Page.", ref("LogsList")),
        errors: [400, 404],
      }),
    },
    [`${D}/pods`]: {
      get: op({
        id: "listPods",
        summary: "Pods",
        tags: ["operations"],
        params: [depP, ...cursorParams],
        ok: ok200("Page.", ref("PodsList")),
        errors: [400, 404],
      }),
    },
    [`${B}/branches`]: {
      get: op({
        id: "listBranches",
        summary: "List branches (newest first)",
        tags: ["branches"],
        params: [depP, ...cursorParams],
        ok: ok200("Page.", ref("BranchesList")),
        errors: [400, 404],
      }),
      post: op({
        id: "createBranch",
        summary: "Create a shared branch (activate=true also switches your dev mode to it)",
        tags: ["branches"],
        params: [depP],
        body: body(ref("BranchCreate")),
        ok: created201("Branch", "getBranch", { ...depLink, branchId: "$response.body#/data/id" }),
        errors: [404, 409, 422],
      }),
      delete: op({
        id: "deleteBranch",
        summary: "Delete a branch; children are re-parented",
        tags: ["branches"],
        params: [depP, queryP("branchName", str(), undefined, true), queryP("removeOnUpstream", en(["true", "false"]))],
        ok: okWrapped("Deleted.", "BranchDeleted"),
        errors: [400, 404, 422],
      }),
    },
    [`${B}/branches/{branchId}`]: {
      get: op({
        id: "getBranch",
        summary: "Get a branch by id",
        tags: ["branches"],
        params: [depP, pathP("branchId", str({ pattern: "^[0-9]+$" }))],
        ok: okWrapped("Branch.", "Branch"),
        errors: [404],
      }),
    },
    [`${B}/dev-mode`]: {
      get: op({
        id: "getDevMode",
        summary: "Your dev-mode state in this deployment",
        tags: ["branches"],
        params: [depP],
        ok: okWrapped("State.", "DevModeState"),
        errors: [404],
      }),
      post: op({
        id: "startDevMode",
        summary: "Start dev mode for the caller (one branch at a time; replaces any other)",
        tags: ["branches"],
        params: [depP],
        body: body(ref("DevModeStart"), false),
        ok: okWrapped("State.", "DevModeState"),
        errors: [404, 422],
      }),
      delete: op({
        id: "stopDevMode",
        summary: "Stop dev mode for the caller (idempotent)",
        tags: ["branches"],
        params: [depP],
        ok: okWrapped("State.", "DevModeState"),
        errors: [404],
      }),
    },
    [`${B}/data-model/files`]: {
      get: op({
        id: "listDataModelFiles",
        summary: "List data-model files (name descending)",
        tags: ["data-model"],
        params: [depP, branchQ, ...cursorParams],
        ok: ok200("Page.", ref("DataModelFilesList")),
        errors: [400, 404],
      }),
      put: op({
        id: "writeDataModelFiles",
        summary: "Write files (only on your dev-mode branch, else 409 dev_mode_required)",
        tags: ["data-model"],
        params: [depP],
        body: body(ref("DataModelWrite")),
        ok: okWrapped("Written.", "DataModelWritten"),
        errors: [404, 409, 422],
      }),
      delete: op({
        id: "deleteDataModelFiles",
        summary: "Delete files (only on your dev-mode branch)",
        tags: ["data-model"],
        params: [depP],
        body: body(ref("DataModelDelete")),
        ok: okWrapped("Deleted.", "DataModelDeleted"),
        errors: [404, 409, 422],
      }),
    },
    [`${B}/data-model/files/rename`]: {
      post: op({
        id: "renameDataModelFiles",
        summary: "Rename files (only on your dev-mode branch)",
        tags: ["data-model"],
        params: [depP],
        body: body(ref("DataModelRename")),
        ok: okWrapped("Renamed.", "DataModelRenamed"),
        errors: [404, 409, 422],
      }),
    },
    [`${B}/data-model/validate`]: {
      get: op({
        id: "validateDataModel",
        summary: "Compile a branch; errors come back with 200 and valid=false",
        tags: ["data-model"],
        params: [depP, branchQ],
        ok: okWrapped("Result.", "Validation"),
        errors: [404],
      }),
    },
    [`${B}/data-model/file-hashes`]: {
      get: op({
        id: "getFileHashes",
        summary: "SHA-1 hashes of the branch files",
        tags: ["data-model"],
        params: [depP, branchQ],
        ok: okWrapped("Hashes.", "FileHashes"),
        errors: [404],
      }),
    },
    [`${D}/dbt-sync`]: {
      post: op({
        id: "startDbtSync",
        summary: "Start a dbt sync",
        tags: ["dbt-sync"],
        params: [depP],
        body: body(ref("DbtSyncStart"), false),
        ok: created201("DbtSyncJob", "getDbtSync", { ...depLink, syncJobId: "$response.body#/data/id" }),
        errors: [404, 422],
      }),
      get: op({
        id: "listDbtSyncs",
        summary: "Sync run history (newest first)",
        tags: ["dbt-sync"],
        params: [
          depP,
          queryP("status", en(["queued", "running", "succeeded", "failed", "cancelled"])),
          queryP("trigger", en(["api", "schedule", "manual"])),
          ...cursorParams,
        ],
        ok: ok200("Page.", ref("DbtSyncList")),
        errors: [400, 404],
      }),
    },
    [`${D}/dbt-sync/{syncJobId}`]: {
      get: op({ id: "getDbtSync", summary: "Poll a sync", tags: ["dbt-sync"], params: [depP, jobP], ok: okWrapped("Job.", "DbtSyncJob"), errors: [404] }),
      delete: op({
        id: "cancelDbtSync",
        summary: "Cancel a sync (409 when already finished)",
        tags: ["dbt-sync"],
        params: [depP, jobP],
        ok: okWrapped("Job.", "DbtSyncJob"),
        errors: [404, 409],
      }),
    },
    [`${D}/dbt-sync/{syncJobId}/result`]: {
      get: op({
        id: "getDbtSyncResult",
        summary: "Result of a finished sync (409 while queued or running)",
        tags: ["dbt-sync"],
        params: [depP, jobP],
        ok: okWrapped("Result.", "DbtSyncResult"),
        errors: [404, 409],
      }),
    },
    [`${D}/dbt-sync/{syncJobId}/logs`]: {
      get: op({
        id: "getDbtSyncLogs",
        summary: "Log entries of a sync (newest first)",
        tags: ["dbt-sync"],
        params: [depP, jobP, ...cursorParams],
        ok: ok200("Page.", ref("DbtLogsList")),
        errors: [400, 404],
      }),
    },
    "/api/v1/users": {
      get: op({
        id: "listUsers",
        summary: "List users (newest first)",
        tags: ["users"],
        params: [queryP("search", str()), ...cursorParams],
        ok: ok200("Page.", ref("UsersList")),
        errors: [400],
      }),
      post: op({
        id: "createUser",
        summary: "Create a user",
        tags: ["users"],
        body: body(ref("UserCreate")),
        ok: created201("User", "getUser", { id: "$response.body#/data/id" }),
        errors: [409, 422],
      }),
    },
    "/api/v1/users/bulk": {
      post: op({
        id: "bulkUsers",
        summary: "Bulk DEACTIVATE, ACTIVATE or DELETE with per-user failures",
        tags: ["users"],
        body: body(ref("UsersBulkRequest")),
        ok: ok200("Outcome.", ref("UsersBulkResult")),
        errors: [422],
      }),
    },
    "/api/v1/users/{id}": {
      get: op({ id: "getUser", summary: "Get a user", tags: ["users"], params: [idP], ok: okWrapped("User.", "User"), errors: [404] }),
      put: op({
        id: "updateUser",
        summary: "Update a user (partial)",
        tags: ["users"],
        params: [idP],
        body: body(ref("UserUpdate")),
        ok: okWrapped("User.", "User"),
        errors: [404, 409, 422],
      }),
    },
    "/api/v1/user-attributes/": {
      get: op({
        id: "listUserAttributes",
        summary: "List user attributes (name descending); also served without the trailing slash",
        tags: ["users"],
        params: [...cursorParams],
        ok: ok200("Page.", ref("UserAttributesList")),
        errors: [400],
      }),
      post: op({
        id: "createUserAttribute",
        summary: "Create a user attribute",
        tags: ["users"],
        body: body(ref("UserAttributeCreate")),
        ok: created201("UserAttribute", "getUserAttribute", { attributeId: "$response.body#/data/id" }),
        errors: [409, 422],
      }),
    },
    "/api/v1/user-attributes/{attributeId}": {
      get: op({
        id: "getUserAttribute",
        summary: "Get a user attribute",
        tags: ["users"],
        params: [pathP("attributeId", str({ pattern: "^[0-9]+$" }))],
        ok: okWrapped("Attribute.", "UserAttribute"),
        errors: [404],
      }),
    },
    "/api/v1/user-attribute-values/{userId}": {
      get: op({
        id: "getUserAttributeValues",
        summary: "Attribute values of a user",
        tags: ["users"],
        params: [pathP("userId", str({ pattern: "^[0-9]+$" }))],
        ok: okWrapped("Values.", "UserAttributeValues"),
        errors: [404],
      }),
      put: op({
        id: "putUserAttributeValues",
        summary: "Set attribute values of a user (typed; null removes)",
        tags: ["users"],
        params: [pathP("userId", str({ pattern: "^[0-9]+$" }))],
        body: body(ref("UserAttributeValuesPut")),
        ok: okWrapped("Values.", "UserAttributeValues"),
        errors: [404, 422],
      }),
    },
  };
}
