// OpenAPI 3.1 document: operations.
type S = Record<string, unknown>;
const ref = (n: string): S => ({ $ref: `#/components/schemas/${n}` });
const arr = (s: S): S => ({ type: "array", items: s });
const str: S = { type: "string" };
const int: S = { type: "integer" };

interface P {
  name: string;
  in: "path" | "query";
  schema: S;
  required?: boolean;
  description?: string;
}
const path = (name: string, schema: S = str): P => ({ name, in: "path", required: true, schema });
const qp = (name: string, schema: S, description?: string, required = false): P => ({ name, in: "query", schema, description, required });
const dep = path("deploymentId");
const offsetParams = [
  qp("offset", { type: "integer", minimum: 0, default: 0 }),
  qp("limit", { type: "integer", minimum: 1, maximum: 50, default: 20 }, "values above 50 are clamped"),
];
const cursorParams = [
  qp("first", { type: "integer", minimum: 1, maximum: 50, default: 7 }, "page size; values above 50 are clamped"),
  qp("after", str, "opaque cursor (endCursor of the previous page)"),
];
const folderParam = qp("folderId", { oneOf: [{ type: "integer", minimum: 0 }, { type: "null" }] }, "containing folder; 0, empty or 'null' select the root");

interface OpDef {
  summary: string;
  params?: P[];
  body?: S;
  bodyRequired?: boolean;
  ok: S | "csv" | "empty";
  status?: string;
  errors: number[];
  style: "control" | "platform";
  meta?: boolean;
}

function op(d: OpDef): S {
  const responses: S = {};
  const okStatus = d.status ?? (d.ok === "empty" ? "204" : "200");
  if (d.ok === "csv") responses[okStatus] = { description: "CSV attachment", content: { "text/csv": { schema: str } } };
  else if (d.ok === "empty") responses[okStatus] = { description: "No content" };
  else responses[okStatus] = { description: "Success", content: { "application/json": { schema: d.ok } } };
  const errSchema = ref(d.style === "control" ? "ControlError" : "PlatformError");
  for (const code of [401, 403, ...d.errors])
    responses[String(code)] = { description: `Error ${code}`, content: { "application/json": { schema: errSchema } } };
  const o: S = { summary: d.summary, parameters: d.params ?? [], responses };
  if (d.body) o.requestBody = { required: d.bodyRequired ?? true, content: { "application/json": { schema: d.body } } };
  if (d.meta) o.security = [{ bearerAuth: [] }];
  return o;
}

const obj = (props: S, required: string[] = []): S => ({ type: "object", required, properties: props });
const cursorList = (item: S, extra: S = {}): S =>
  obj({ items: arr(item), pageInfo: ref("PageInfo"), data: { ...arr(item), deprecated: true }, ...extra }, ["items", "pageInfo", "data"]);
const itemsBody = obj({ items: { type: "array", items: ref("ItemRef"), maxItems: 100 } }, ["items"]);

export function buildPaths(): Record<string, S> {
  const d = "/api/v1/deployments/{deploymentId}";
  const b = "/build/api/v1/deployments/{deploymentId}";
  const env = `${d}/environments/{environmentId}`;
  return {
    "/api/v1/deployments": {
      get: op({
        summary: "List deployments (newest first)",
        params: offsetParams,
        ok: obj({ data: obj({ deployments: arr(ref("Deployment")) }, ["deployments"]), pagination: ref("OffsetPagination") }, ["data", "pagination"]),
        errors: [422],
        style: "control",
      }),
    },
    [d]: {
      put: op({
        summary: "Update a deployment (partial merge)",
        params: [dep],
        body: ref("DeploymentUpdate"),
        ok: obj({ data: ref("DeploymentSettings") }),
        errors: [400, 404, 422],
        style: "control",
      }),
      delete: op({ summary: "Delete a deployment", params: [dep], ok: "empty", errors: [404], style: "control" }),
    },
    [`${d}/environments`]: {
      get: op({
        summary: "List environments (development, staging, production order)",
        params: [
          dep,
          qp("type", { type: "string", enum: ["production", "staging", "development"] }),
          qp("offset", { type: "integer", minimum: 0, default: 0 }),
          qp("limit", { type: "integer", minimum: 0, maximum: 50, default: 20 }),
          ...cursorParams,
        ],
        ok: cursorList(ref("Environment"), { pagination: { oneOf: [ref("OffsetPagination"), { type: "null" }], deprecated: true } }),
        errors: [404, 422],
        style: "control",
      }),
    },
    [`${env}/tokens-for-meta-sync`]: {
      post: op({
        summary: "Create a metadata-only token",
        params: [dep, path("environmentId")],
        body: obj(
          {
            security_context: { type: "object", additionalProperties: true },
            expires_in: { type: "number", exclusiveMinimum: 0, maximum: 604800, default: 86400 },
          },
          ["security_context"],
        ),
        ok: obj({ data: ref("MetaToken") }, ["data"]),
        errors: [404, 422],
        style: "control",
      }),
    },
    [`${env}/meta/data-sources`]: {
      get: op({
        summary: "Metadata: data sources (accepts metadata tokens)",
        params: [dep, path("environmentId")],
        ok: obj({ data: arr(obj({ name: str, type: str })) }),
        errors: [404],
        style: "control",
        meta: true,
      }),
    },
    [`${env}/meta/entities`]: {
      get: op({
        summary: "Metadata: entities (accepts metadata tokens; security_context.entities filters)",
        params: [dep, path("environmentId")],
        ok: obj({ data: arr(obj({ name: str, title: str, dataSource: str })) }),
        errors: [404],
        style: "control",
        meta: true,
      }),
    },
    [`${env}/query`]: {
      post: op({
        summary: "REST data query (API key only; metadata tokens rejected with 403)",
        params: [dep, path("environmentId")],
        body: obj({ query: { type: "object" } }, ["query"]),
        ok: obj({ data: arr({}), query: { type: "object" } }),
        errors: [404, 422],
        style: "control",
      }),
    },
    [`${b}/branches/staging-environment`]: {
      put: op({
        summary: "Enable or disable a shared branch's always-on staging environment",
        params: [dep],
        body: obj({ enabled: { type: "boolean" }, branchName: str, branchId: int }, ["enabled"]),
        ok: obj({ data: ref("Branch") }, ["data"]),
        errors: [404, 422],
        style: "control",
      }),
    },
    [`${b}/branches`]: {
      get: op({
        summary: "List branches (by name)",
        params: [dep, ...cursorParams],
        ok: cursorList(ref("BranchListItem"), { count: int }),
        errors: [404, 422],
        style: "control",
      }),
      post: op({
        summary: "Create a branch",
        params: [dep],
        body: obj({ name: str, parentBranch: str, personal: { type: "boolean", default: false } }, ["name"]),
        ok: obj({ data: ref("BranchListItem") }),
        status: "201",
        errors: [404, 409, 422],
        style: "control",
      }),
      delete: op({
        summary: "Delete a branch (children re-parented)",
        params: [dep, qp("branchName", str, undefined, true), qp("removeOnUpstream", { type: "boolean", default: false })],
        ok: obj({ data: obj({ deleted: str, reparented: arr(str), removedOnUpstream: { type: "boolean" } }) }),
        errors: [404, 422],
        style: "control",
      }),
    },
    "/build/api/v1/deployments": {
      post: op({
        summary: "Create a deployment",
        body: ref("DeploymentCreate"),
        ok: obj({ data: ref("DeploymentSettings") }),
        status: "201",
        errors: [400, 422],
        style: "control",
      }),
    },
    [`${d}/build-status`]: {
      get: op({
        summary: "Build/deploy state for a branch (default: production)",
        params: [dep, qp("branchName", str)],
        ok: obj({ data: obj({ branchName: str, lastHash: str, status: str, buildId: str }) }),
        errors: [404],
        style: "control",
      }),
    },
    [`${d}/versions`]: {
      get: op({
        summary: "List versions the deployment can switch to",
        params: [dep],
        ok: obj({ data: arr(ref("DeploymentVersion")) }, ["data"]),
        errors: [404],
        style: "control",
      }),
    },
    [`${d}/settings`]: {
      get: op({
        summary: "Deployment settings (secrets excluded)",
        params: [dep],
        ok: obj({ data: ref("DeploymentSettings") }),
        errors: [404],
        style: "control",
      }),
    },
    [`${d}/env-vars`]: {
      get: op({
        summary: "List environment variables (by name; secret-named values masked)",
        params: [dep, ...cursorParams],
        ok: cursorList(ref("EnvironmentVariable")),
        errors: [404, 422],
        style: "control",
      }),
      put: op({
        summary: "Set environment variables (merge; null value removes; replace=true drops unlisted)",
        params: [dep],
        body: obj(
          {
            variables: arr(
              obj({ name: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" }, value: { oneOf: [str, { type: "null" }] } }, ["name", "value"]),
            ),
            replace: { type: "boolean", default: false },
          },
          ["variables"],
        ),
        ok: obj({ data: obj({ updated: arr(str), removed: arr(str), total: int }) }),
        errors: [404, 422],
        style: "control",
      }),
    },
    "/api/v1/audit-logs/export": {
      get: op({
        summary: "Export audit log as CSV (all cells quoted, CRLF)",
        params: [
          qp("start", { type: "string", format: "date" }),
          qp("end", { type: "string", format: "date" }, "inclusive"),
          qp("search", str),
          qp("eventName", str),
          qp("userEmail", str),
        ],
        ok: "csv",
        errors: [422],
        style: "platform",
      }),
    },
    [`${d}/workbooks`]: {
      get: op({
        summary: "List workspace items (id descending)",
        params: [path("deploymentId", int), folderParam, ...cursorParams],
        ok: ref("WorkbooksListResponse"),
        errors: [404, 422],
        style: "platform",
      }),
    },
    [`${d}/workbooks/{workbookId}`]: {
      get: op({
        summary: "Get a workspace item",
        params: [path("deploymentId", int), path("workbookId", int)],
        ok: ref("Workbook"),
        errors: [404],
        style: "platform",
      }),
    },
    [`${d}/workbooks/{workbookId}/duplicate`]: {
      post: op({
        summary: "Clone a workbook",
        params: [path("deploymentId", int), path("workbookId", int)],
        body: obj({ shared: { type: "boolean", default: false } }),
        bodyRequired: false,
        ok: ref("Workbook"),
        errors: [400, 404, 422],
        style: "platform",
      }),
    },
    [`${d}/workbooks/by-slug/{slug}`]: {
      put: op({
        summary: "Create or update a workbook by slug",
        params: [path("deploymentId", int), path("slug")],
        body: obj({
          name: { type: "string", minLength: 1, description: "defaults to the slug on create" },
          folderId: { oneOf: [int, { type: "null" }] },
          meta: { type: "object", additionalProperties: true, description: "merged key by key; null removes a key" },
        }),
        bodyRequired: false,
        ok: ref("Workbook"),
        errors: [404, 409, 422],
        style: "platform",
      }),
    },
    [`${d}/workspace/bulk-move`]: {
      post: op({
        summary: "Move items in bulk",
        params: [path("deploymentId", int)],
        body: obj({ items: { type: "array", items: ref("ItemRef"), description: "up to 100 distinct items" }, folderId: { oneOf: [int, { type: "null" }] } }, [
          "items",
          "folderId",
        ]),
        ok: obj({ moved: arr(ref("Workbook")), failed: arr(ref("ItemFailure")) }, ["moved", "failed"]),
        errors: [404, 422],
        style: "platform",
      }),
    },
    [`${d}/workspace/bulk-delete`]: {
      post: op({
        summary: "Delete items in bulk (folders recursively)",
        params: [path("deploymentId", int)],
        body: itemsBody,
        ok: obj({ deleted: arr(ref("ItemRef")), failed: arr(ref("ItemFailure")) }, ["deleted", "failed"]),
        errors: [404, 422],
        style: "platform",
      }),
    },
    [`${d}/folders`]: {
      get: op({
        summary: "List folders (folderId filters by parent)",
        params: [path("deploymentId", int), folderParam, ...cursorParams],
        ok: ref("WorkbooksListResponse"),
        errors: [404, 422],
        style: "platform",
      }),
      post: op({
        summary: "Create a folder",
        params: [path("deploymentId", int)],
        body: obj({ name: str, folderId: { oneOf: [int, { type: "null" }] }, meta: { type: "object" } }, ["name"]),
        ok: ref("Workbook"),
        status: "201",
        errors: [404, 422],
        style: "platform",
      }),
    },
    [`${d}/folders/{folderId}`]: {
      delete: op({
        summary: "Delete a folder and its contents",
        params: [path("deploymentId", int), path("folderId", int)],
        ok: "empty",
        errors: [404],
        style: "platform",
      }),
    },
    [`${d}/reports`]: {
      get: op({
        summary: "List reports",
        params: [
          path("deploymentId", int),
          folderParam,
          qp("externalWorkbookId", str),
          qp("search", str),
          qp("sortBy", { type: "string", enum: ["createdAt", "updatedAt", "lastViewedAt", "name"] }),
          ...cursorParams,
        ],
        ok: ref("WorkbooksListResponse"),
        errors: [404, 422],
        style: "platform",
      }),
    },
    "/api/v1/regions": {
      get: op({ summary: "Regions available to the tenant", params: cursorParams, ok: cursorList(ref("Region")), errors: [422], style: "control" }),
    },
    "/api/v1/app-config": { get: op({ summary: "App configuration", ok: ref("AppConfig"), errors: [], style: "platform" }) },
    "/api/v1/spec": { get: op({ summary: "This OpenAPI document", ok: { type: "object" }, errors: [], style: "platform" }) },
  };
}
