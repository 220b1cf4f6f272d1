import { matchPath } from "../core/api/match.js";
import { operation, type OperationName } from "../core/api/operations.js";
import { isOperation, type Req } from "./http.js";
import type { Variant } from "./variant.js";

/**
 * A second document shape for the E14 families: the one a server following the platform's
 * published document could declare (its spellings, not the reference's), served at GET
 * /api/v1/spec and answered by the E14 routes. The suite's E14 checks and the document-driven
 * layer read the server's document; this variant proves they work on one they were not written
 * against. Only spellings the spec leaves open change (E14 shapes are not shown): the names the
 * spec states (branchName of the branch delete, sortBy and its values, search, source,
 * container, status, trigger, first, after, items, pageInfo, action values, valid) stay.
 */
type Renames = Record<string, string>;

/** Component schema -> (JSON pointer of an object schema inside it, "" for itself) -> property renames. */
const SCHEMA_RENAMES: Record<string, Record<string, Renames>> = {
  DataModelFile: { "": { fileName: "path" } },
  FileHash: { "": { fileName: "path" } },
  FilesWriteRequest: { "": { branchName: "branch" }, "/properties/files/items": { fileName: "path" } },
  FileRenameRequest: { "": { branchName: "branch" } },
  DevModeRequest: { "": { branchName: "branch" } },
  UploadStartRequest: { "": { branchName: "branch" } },
  ValidationResult: { "/properties/errors/items": { fileName: "path" } },
  UsersBulkRequest: { "": { userIds: "ids" } },
  UsersBulkResponse: { "": { failed: "failures" }, "/properties/failed/items": { userId: "id" } },
  UserAttribute: { "": { name: "key", type: "dataType" } },
  UserAttributeWrite: { "": { name: "key", type: "dataType" } },
  Report: { "": { name: "title" } },
  ReportUpsertRequest: { "": { name: "title" } },
  EmbedAccessRequest: { "": { tenantId: "embedTenantId", allEmbedUsers: "allUsers" } },
  EmbedAccess: { "/properties/items/items": { tenantId: "embedTenantId", allEmbedUsers: "allUsers" } },
};
/** Query parameters renamed on the data-model and dev-mode operations. */
const QUERY_RENAMES: Renames = { branchName: "branch" };
const RENAMED_QUERY_OPERATIONS: OperationName[] = [
  "listDataModelFiles",
  "writeDataModelFiles",
  "deleteDataModelFiles",
  "renameDataModelFiles",
  "validateDataModel",
  "startUpload",
  "uploadFile",
  "finishUpload",
  "getFileHashes",
  "startDevMode",
  "stopDevMode",
];
const USER_ATTRIBUTE_OPERATIONS: OperationName[] = [
  "listUserAttributes",
  "createUserAttribute",
  "getUserAttribute",
  "updateUserAttribute",
  "deleteUserAttribute",
];
/** E14 lists that the published shape gives without the legacy data and count. */
const E14_LISTS = /^(?!Deployments|Environments|EnvVars|Versions|Workbooks|Folders|Branches).*ListResponse$/;

function renameKeys(obj: any, renames: Renames): any {
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) return obj;
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [renames[k] ?? k, v]));
}

function renameSchema(node: any, renames: Renames): void {
  if (!node || typeof node !== "object") return;
  if (node.properties) node.properties = renameKeys(node.properties, renames);
  for (const key of ["required"]) if (Array.isArray(node[key])) node[key] = node[key].map((r: string) => renames[r] ?? r);
  for (const key of ["allOf", "anyOf", "oneOf"]) if (Array.isArray(node[key])) for (const part of node[key]) renameSchema(part, renames);
}

const at = (node: any, pointer: string) =>
  pointer
    .split("/")
    .slice(1)
    .reduce((o, k) => o?.[k], node);

/** The served document in the published shape (a deep copy; the reference's own is left alone). */
export function platformDocument(doc: any): any {
  const out = structuredClone(doc);
  const schemas = out.components?.schemas ?? {};
  // Pointers name the schema before its renames: read every target first, then rename.
  for (const [name, byPointer] of Object.entries(SCHEMA_RENAMES)) {
    const targets = Object.entries(byPointer).map(([pointer, renames]) => [at(schemas[name], pointer), renames] as const);
    for (const [node, renames] of targets) renameSchema(node, renames);
  }
  for (const [name, schema] of Object.entries<any>(schemas)) {
    if (!E14_LISTS.test(name) || !schema?.properties) continue;
    delete schema.properties.data;
    delete schema.properties.count;
  }
  for (const [path, item] of Object.entries<any>(out.paths ?? {}))
    for (const op of Object.values<any>(item)) {
      // Create bodies name their required fields inline beside the component they extend.
      const body = op?.requestBody?.content?.["application/json"]?.schema;
      const write = body?.allOf?.[0]?.$ref?.split("/").pop();
      if (write && SCHEMA_RENAMES[write]?.[""]) renameSchema(body, SCHEMA_RENAMES[write][""]);
      if (RENAMED_QUERY_OPERATIONS.some((n) => matchPath(operation(n).path, path)))
        for (const p of op?.parameters ?? []) if (p.in === "query" && QUERY_RENAMES[p.name]) p.name = QUERY_RENAMES[p.name];
    }
  out.info = {
    ...out.info,
    title: "Platform API",
    description: "The platform's management API in the shape of its published document (E14 spellings differ from the reference's).",
  };
  return out;
}

const invert = (r: Renames): Renames => Object.fromEntries(Object.entries(r).map(([k, v]) => [v, k]));
const mapEach = (list: unknown, f: (x: any) => any) => (Array.isArray(list) ? list.map(f) : list);

/** A request in the published spelling, read back into the reference's. */
function readRequest(body: any, req: Req): any {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  if (isOperation(req, ...RENAMED_QUERY_OPERATIONS))
    return {
      ...renameKeys(body, { branch: "branchName" }),
      ...(Array.isArray(body.files) ? { files: body.files.map((f: any) => renameKeys(f, { path: "fileName" })) } : {}),
    };
  if (req.operation === "bulkUserAction") return renameKeys(body, { ids: "userIds" });
  if (isOperation(req, ...USER_ATTRIBUTE_OPERATIONS)) return renameKeys(body, invert(SCHEMA_RENAMES.UserAttribute[""]));
  if (req.operation === "upsertReportByPublicId") return renameKeys(body, { title: "name" });
  if (isOperation(req, "getEmbedAccess", "setEmbedAccess")) return renameKeys(body, invert(SCHEMA_RENAMES.EmbedAccessRequest[""]));
  return body;
}

/** An E14 answer in the published spelling. */
function answer(body: any, req: Req): any {
  if (req.operation === "getSpec") return platformDocument(body);
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  let out = body;
  const path = (x: any) => renameKeys(x, { fileName: "path" });
  if (isOperation(req, ...RENAMED_QUERY_OPERATIONS))
    out = {
      ...out,
      items: mapEach(out.items, path),
      data: mapEach(out.data, path),
      files: Array.isArray(out.files) && typeof out.files[0] === "object" ? out.files.map(path) : out.files,
      errors: mapEach(out.errors, path),
    };
  if (req.operation === "bulkUserAction")
    out = renameKeys({ ...out, failed: mapEach(out.failed, (f) => renameKeys(f, { userId: "id" })) }, { failed: "failures" });
  if (isOperation(req, ...USER_ATTRIBUTE_OPERATIONS))
    out =
      "items" in out
        ? { ...out, items: mapEach(out.items, (a) => renameKeys(a, SCHEMA_RENAMES.UserAttribute[""])) }
        : renameKeys(out, SCHEMA_RENAMES.UserAttribute[""]);
  if (isOperation(req, "listReports", "upsertReportByPublicId"))
    out = "items" in out ? { ...out, items: mapEach(out.items, (r) => renameKeys(r, { name: "title" })) } : renameKeys(out, { name: "title" });
  if (isOperation(req, "getEmbedAccess", "setEmbedAccess"))
    out = { ...out, items: mapEach(out.items, (e) => renameKeys(e, SCHEMA_RENAMES.EmbedAccessRequest[""])) };
  // The published lists carry items and pageInfo only (the E1-E13 lists and folders, branches keep their legacy copies).
  if (req.method === "GET" && Array.isArray(out.items) && "pageInfo" in out && !isOperation(req, "listFolders", "listBranches")) {
    const { data: _data, count: _count, ...rest } = out;
    out = rest;
  }
  return out;
}

export const platformDocumentVariant: Variant = {
  name: "platform-document",
  description:
    "The E14 families in the published document's spellings: its own served document (data-model files by path and branch, bulk users by ids with failures, user attributes key/dataType, reports titled, embed access by embedTenantId or allUsers, E14 lists without data and count) and answers to match",
  routes: ["E14"],
  request: (req) => {
    if (!isOperation(req, ...RENAMED_QUERY_OPERATIONS)) return;
    for (const [to, from] of Object.entries(QUERY_RENAMES)) {
      const v = req.query.get(from);
      if (v !== null && req.query.get(to) === null) req.query.set(to, v);
      req.query.delete(from);
    }
  },
  readRequestBody: readRequest,
  respond: answer,
};
