// components.schemas, second half: operations, users, dbt sync, data model.
import { anyObj, arr, bool, cursorList, dt, en, int, nullable, obj, ref, str } from "./openapi-util.js";
import type { S } from "./openapi-util.js";

const ROLES = ["VIEWER", "AI_BI_USER", "DEVELOPER", "ADMIN"];
const ATTR_TYPES = ["string", "number", "boolean", "string_array", "number_array"];

export function schemas2(): Record<string, S> {
  return {
    AppConfig: obj(["appTheme", "applyThemeGlobally", "creatorMode", "embedding", "sheetsUi", "timezoneSettings"], {
      appTheme: anyObj(),
      applyThemeGlobally: bool(),
      creatorMode: anyObj(),
      embedding: anyObj(),
      sheetsUi: anyObj(),
      timezoneSettings: anyObj(),
    }),
    Region: obj(["id", "name", "cloudProvider", "isDefault"], { id: str(), name: str(), cloudProvider: en(["aws", "gcp"]), isDefault: bool() }),
    RegionsList: cursorList(ref("Region")),
    BuildStatus: obj(["branchName", "status", "lastHash", "updatedAt"], {
      branchName: str(),
      status: en(["built", "building", "failed", "queued"]),
      lastHash: str(),
      updatedAt: dt(),
      error: str(),
    }),
    LogEntry: obj(["timestamp", "source", "container", "level", "message"], {
      timestamp: dt(),
      source: en(["production", "dev"]),
      container: en(["INIT", "MAIN", "vector", "api-proxy", "cube"]),
      level: str(),
      message: str(),
    }),
    LogsList: cursorList(ref("LogEntry")),
    Pod: obj(["name", "status", "role", "restarts", "startedAt"], { name: str(), status: str(), role: str(), restarts: int(), startedAt: dt() }),
    PodsList: cursorList(ref("Pod")),
    User: obj(["id", "email", "role", "status", "permissions", "createdAt"], {
      id: int(),
      email: str(),
      firstName: str(),
      lastName: str(),
      picture: str(),
      role: en(ROLES),
      status: en(["active", "deactivated"]),
      permissions: arr(str()),
      createdAt: dt(),
    }),
    UsersList: cursorList(ref("User")),
    UserCreate: obj(["email"], {
      email: str({ format: "email" }),
      firstName: nullable(str()),
      lastName: nullable(str()),
      role: en(ROLES),
      permissions: arr(str()),
    }),
    UserUpdate: obj([], { email: str({ format: "email" }), firstName: nullable(str()), lastName: nullable(str()), role: en(ROLES), permissions: arr(str()) }),
    UsersBulkRequest: obj(["action", "userIds"], { action: en(["DEACTIVATE", "ACTIVATE", "DELETE"]), userIds: arr(int(), { minItems: 1, maxItems: 100 }) }),
    UsersBulkResult: obj(["action", "succeeded", "failed"], {
      action: en(["DEACTIVATE", "ACTIVATE", "DELETE"]),
      succeeded: arr(int()),
      failed: arr(obj(["id", "error"], { id: int(), error: ref("ItemError") })),
    }),
    UserAttribute: obj(["id", "name", "type", "createdAt"], { id: int(), name: str(), type: en(ATTR_TYPES), description: str(), createdAt: dt() }),
    UserAttributesList: cursorList(ref("UserAttribute")),
    UserAttributeCreate: obj(["name", "type"], { name: str({ pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$" }), type: en(ATTR_TYPES), description: str() }),
    UserAttributeValues: obj(["userId", "values"], { userId: int(), values: anyObj() }),
    UserAttributeValuesPut: obj(["values"], {
      values: { type: "object", additionalProperties: true, description: "Attribute name to value of its type; null removes." },
    }),
    DbtSyncStart: obj([], { branchName: str(), ref: str({ minLength: 1 }) }),
    DbtSyncJob: obj(["id", "deploymentId", "status", "trigger", "branchName", "createdAt"], {
      id: int(),
      deploymentId: int(),
      status: en(["queued", "running", "succeeded", "failed", "cancelled"]),
      trigger: en(["api", "schedule", "manual"]),
      branchName: str(),
      ref: str(),
      createdAt: dt(),
      startedAt: dt(),
      finishedAt: dt(),
    }),
    DbtSyncList: cursorList(ref("DbtSyncJob")),
    DbtSyncResult: obj(["jobId", "status"], {
      jobId: int(),
      status: en(["succeeded", "failed", "cancelled"]),
      summary: obj(["modelsSynced", "cubesGenerated", "viewsGenerated", "filesWritten"], {
        modelsSynced: int(),
        cubesGenerated: int(),
        viewsGenerated: int(),
        filesWritten: arr(str()),
      }),
      error: obj(["message"], { message: str() }),
    }),
    DbtLogEntry: obj(["timestamp", "level", "message"], { timestamp: dt(), level: str(), message: str() }),
    DbtLogsList: cursorList(ref("DbtLogEntry")),
    DataModelFile: obj(["fileName", "size", "hash", "updatedAt", "content"], { fileName: str(), size: int(), hash: str(), updatedAt: dt(), content: str() }),
    DataModelFilesList: cursorList(ref("DataModelFile"), { branchName: str() }),
    DataModelWrite: obj(["files"], {
      branchName: str({ description: "Defaults to your dev-mode branch; must be your dev-mode branch." }),
      files: arr(obj(["fileName", "content"], { fileName: str(), content: str() }), { minItems: 1, maxItems: 100 }),
    }),
    DataModelWritten: obj(["branchName", "written", "lastHash"], { branchName: str(), written: arr(str()), lastHash: str() }),
    DataModelDelete: obj(["fileNames"], { branchName: str(), fileNames: arr(str(), { minItems: 1 }) }),
    DataModelDeleted: obj(["branchName", "deleted", "missing"], { branchName: str(), deleted: arr(str()), missing: arr(str()) }),
    DataModelRename: obj(["renames"], { branchName: str(), renames: arr(obj(["from", "to"], { from: str(), to: str() }), { minItems: 1 }) }),
    DataModelRenamed: obj(["branchName", "renamed"], { branchName: str(), renamed: arr(obj(["from", "to"], { from: str(), to: str() })) }),
    Validation: obj(["branchName", "valid", "errors", "fileCount"], {
      branchName: str(),
      valid: bool(),
      fileCount: int(),
      errors: arr(obj(["fileName", "message"], { fileName: str(), message: str(), line: int() })),
    }),
    FileHashes: obj(["branchName", "hashes"], { branchName: str(), hashes: { type: "object", additionalProperties: str() } }),
  };
}
