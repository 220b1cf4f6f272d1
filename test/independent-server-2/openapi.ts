type S = Record<string, unknown>;
const ref = (n: string): S => ({ $ref: `#/components/schemas/${n}` });
const str: S = { type: "string" },
  int: S = { type: "integer" },
  bool: S = { type: "boolean" },
  obj: S = { type: "object", additionalProperties: true };
const nul = (t: string | string[]): S => ({ type: [...(Array.isArray(t) ? t : [t]), "null"] });
const arr = (i: S): S => ({ type: "array", items: i });
const o = (props: S, required: string[] = []): S => ({ type: "object", properties: props, ...(required.length ? { required } : {}) });
const json = (schema: S) => ({ "application/json": { schema } });
const ok = (schema: S, desc = "OK") => ({ description: desc, content: json(schema) });
const err = { description: "Error", content: json(ref("Error")) };
const q = (name: string, schema: S, required = false) => ({ name, in: "query", required, schema });
const p = (name: string, schema: S = str) => ({ name, in: "path", required: true, schema });
const dep = p("deploymentId", { type: ["string", "integer"] });
const cursorQ = [q("first", { type: "integer", minimum: 1 }), q("after", str)];
const list = (item: S, extra: S = {}) => o({ items: arr(item), data: arr(item), pageInfo: ref("PageInfo"), ...extra }, ["items", "pageInfo"]);
const op = (summary: string, responses: S, extra: S = {}) => ({
  summary,
  security: [{ bearerAuth: [] }],
  responses: { ...responses, "401": err, "404": err },
  ...extra,
});
const body = (schema: S, required = true) => ({ requestBody: { required, content: json(schema) } });
const pos = o({ x: int, y: int, w: int, h: int }, ["x", "y", "w", "h"]);
const bp = (v: S) => o({ lg: v, md: v, sm: v, xs: v, xxs: v });
const refItem = o({ type: { type: "string", enum: ["WORKBOOK", "REPORT", "FOLDER"] }, id: int }, ["type", "id"]);
const failed = arr(o({ type: str, id: int, error: o({ message: str, status: int }, ["message", "status"]) }, ["type", "id", "error"]));

const schemas: S = {
  Error: o({ error: str, message: str, statusCode: int, code: str }),
  PageInfo: o({ hasNextPage: bool, hasPreviousPage: bool, startCursor: nul("string"), endCursor: nul("string") }, ["hasNextPage", "hasPreviousPage"]),
  Deployment: o({ id: str, name: str, created_at: str, deploymentUrl: str, creationStep: str }, ["id", "name"]),
  Environment: o(
    {
      id: str,
      name: str,
      type: { type: "string", enum: ["production", "staging", "development"] },
      branch: nul("string"),
      user: nul("string"),
      api_credentials: {
        oneOf: [
          arr(o({ type: str, version: int, database: nul("string"), host: nul("string"), port: nul("integer"), url: nul("string") })),
          o({ rest: o({ url: str }), sql: o({ host: str, port: int }) }),
        ],
      },
    },
    ["id", "type"],
  ),
  Branch: o({ id: int, name: str, parentBranch: nul("string"), lastHash: nul("string"), isStagingEnvironmentEnabled: nul("boolean") }, ["id", "name"]),
  Version: o({ releaseChannelVersion: str, version: str, releaseChannel: str, isLatestInChannel: bool, isCurrent: bool }, [
    "releaseChannelVersion",
    "version",
    "releaseChannel",
    "isLatestInChannel",
    "isCurrent",
  ]),
  EnvVar: o({ name: str, value: str }, ["name", "value"]),
  ResourceOwner: o({ id: int, email: str, firstName: nul("string"), picture: nul("string") }, ["id", "email"]),
  DashboardWidget: o(
    {
      id: str,
      type: { type: "string", enum: ["CHART", "TEXT", "FILTER", "AI", "TIME_GRAIN", "PARENT", "SPACER", "DIVIDER", "CONTAINER"] },
      position: pos,
      responsiveLayouts: { anyOf: [bp({ anyOf: [pos, { type: "null" }] }), { type: "null" }] },
      config: nul("object"),
      style: nul("object"),
    },
    ["id", "type", "position"],
  ),
  DashboardConfig: o({
    kind: { type: ["string", "null"], enum: ["CLASSIC", "APP", null] },
    title: nul("string"),
    description: nul("string"),
    widgets: { type: ["array", "null"], items: ref("DashboardWidget") },
    layout: o({ breakpoints: bp(nul("integer")), cols: bp(nul("integer")), containerPadding: arr(int), margin: arr(int), rowHeight: nul("integer") }),
    settings: nul("object"),
    theme: nul("object"),
    app: o({
      entry: { type: ["string", "null"], maxLength: 255 },
      files: { type: ["object", "null"], additionalProperties: str },
      html: nul("string"),
      manifest: o({ dependencies: { type: ["object", "null"], additionalProperties: str }, version: nul("integer") }),
    }),
  }),
  ReportSnapshot: o(
    {
      id: int,
      reportId: int,
      versionNumber: int,
      kind: { type: ["string", "null"], enum: ["vega", "table", "kpi", "html", "map", null] },
      name: nul("string"),
      title: nul("string"),
      description: nul("string"),
      sqlQuery: nul("string"),
      pythonCode: nul("string"),
      spec: { type: ["string", "object", "null"] },
      meta: nul("object"),
      isSourceReport: nul("boolean"),
    },
    ["id", "reportId", "versionNumber"],
  ),
  Dashboard: o(
    {
      id: int,
      publicId: str,
      deploymentId: int,
      workbookId: int,
      status: { type: "string", enum: ["draft", "published", "archived"] },
      allowEmbed: bool,
      config: ref("DashboardConfig"),
      versionNumber: int,
      versionId: int,
      reportSnapshots: arr(ref("ReportSnapshot")),
      createdBy: nul("integer"),
      title: nul("string"),
      description: nul("string"),
    },
    ["id", "publicId", "deploymentId", "workbookId", "status", "allowEmbed", "config", "versionNumber", "versionId", "reportSnapshots"],
  ),
  Workbook: o(
    {
      id: int,
      deploymentId: int,
      name: str,
      type: { type: "string", enum: ["FOLDER", "WORKBOOK", "REPORT"] },
      meta: obj,
      calculatedFields: obj,
      createdAt: { type: "string", format: "date" },
      updatedAt: { type: "string", format: "date" },
      createdBy: int,
      userId: nul("number"),
      user: { anyOf: [ref("ResourceOwner"), { type: "null" }] },
      folderId: nul("number"),
      folderPath: arr(o({ id: int, name: str }, ["id", "name"])),
      isFavorite: nul("boolean"),
      slug: nul("string"),
      dashboardDraft: { anyOf: [ref("DashboardConfig"), { type: "null" }] },
      dashboardPublished: { anyOf: [ref("DashboardConfig"), { type: "null" }] },
      publishedDashboard: { anyOf: [ref("Dashboard"), { type: "null" }] },
    },
    ["id", "deploymentId", "name", "type", "meta", "calculatedFields", "createdAt", "updatedAt"],
  ),
  Folder: o(
    {
      id: int,
      name: str,
      position: int,
      deploymentId: int,
      createdAt: str,
      updatedAt: str,
      type: str,
      parentId: int,
      createdBy: int,
      updatedBy: int,
      folderPath: arr(o({ id: int, name: str })),
    },
    ["id", "name", "position", "deploymentId", "createdAt", "updatedAt", "type"],
  ),
};

const dp = "/api/v1/deployments/{deploymentId}";
const bdp = "/build/api/v1/deployments/{deploymentId}";
const wsList = list(ref("Workbook"), { count: nul("integer") });
const paths: S = {
  "/api/v1/spec": { get: op("This OpenAPI document", { "200": ok(obj) }) },
  "/api/v1/app-config": {
    get: op("App configuration", {
      "200": ok(o({ appTheme: obj, applyThemeGlobally: bool, creatorMode: bool, embedding: obj, sheetsUi: obj, timezoneSettings: obj })),
    }),
  },
  "/api/v1/regions/": {
    get: op("Regions available to the tenant", { "200": ok(list(o({ cloudProvider: str, region: str, name: str }))) }, { parameters: cursorQ }),
  },
  "/api/v1/deployments": {
    get: op(
      "E1 List deployments",
      { "200": ok(o({ data: o({ deployments: arr(ref("Deployment")) }), pagination: o({ offset: int, limit: int, total: int }) })) },
      { parameters: [q("offset", { type: "integer", minimum: 0 }), q("limit", { type: "integer", minimum: 1, maximum: 100 })] },
    ),
  },
  [dp]: {
    put: op(
      "E6 Update a deployment (partial merge)",
      { "200": ok(o({ data: obj })), "400": err },
      {
        parameters: [dep],
        ...body(
          o({
            cloudProvider: str,
            region: str,
            releaseChannel: str,
            releaseChannelVersion: str,
            releaseChannelVersionHold: bool,
            template: nul("string"),
            templateVariables: obj,
            defaultLaunchpadViewGroup: {},
            launchpadTabs: arr({}),
            creationMethod: { type: "string", enum: ["upload", "<hosted>", "github", "ssh"] },
            deployMode: { type: "string", enum: ["git", "cli"] },
          }),
        ),
      },
    ),
  },
  [`${dp}/environments`]: {
    get: op(
      "E2 List environments (control-plane variant)",
      { "200": ok(o({ data: o({ environments: arr(ref("Environment")) }), pagination: nul("object"), pageInfo: ref("PageInfo") })) },
      {
        parameters: [
          dep,
          q("type", { type: "string", enum: ["production", "staging", "development"] }),
          q("offset", { type: "integer", minimum: 0 }),
          q("limit", { type: "integer", minimum: 0 }),
          ...cursorQ,
        ],
      },
    ),
  },
  [`${dp}/environments/{environmentId}/tokens-for-meta-sync`]: {
    post: op(
      "E3 Create a metadata token",
      {
        "200": ok(
          o({ data: o({ token: str, created_at: str, expires_at: str, security_context: obj, scopes: arr(str) }, ["token", "created_at", "expires_at"]) }),
        ),
        "422": err,
      },
      {
        parameters: [dep, p("environmentId")],
        ...body(o({ security_context: obj, expires_in: { type: "number", minimum: 1, maximum: 3600, default: 86400 } }, ["security_context"])),
      },
    ),
  },
  [`${dp}/versions`]: {
    get: op(
      "E5 List deployment versions",
      { "200": ok(o({ items: arr(ref("Version")), pageInfo: { anyOf: [ref("PageInfo"), { type: "null" }] } })) },
      { parameters: [dep] },
    ),
  },
  [`${dp}/settings`]: { get: op("Deployment settings, secrets excluded", { "200": ok(o({ data: obj })) }, { parameters: [dep] }) },
  [`${dp}/env-vars`]: {
    get: op("E13 List environment variables", { "200": ok(list(ref("EnvVar"))) }, { parameters: [dep, ...cursorQ] }),
    put: op(
      "Set environment variables (add or update by name)",
      { "200": ok(list(ref("EnvVar"))), "400": err },
      { parameters: [dep], ...body(o({ env_variables: arr(ref("EnvVar")) }, ["env_variables"])) },
    ),
  },
  [`${dp}/data-sources`]: { get: op("Metadata: data sources (metadata tokens accepted)", { "200": ok(obj) }, { parameters: [dep] }) },
  [`${dp}/entities`]: { get: op("Metadata: entities (metadata tokens accepted)", { "200": ok(obj) }, { parameters: [dep] }) },
  "/api/v1/audit-logs/export": {
    get: op(
      "E7 Export audit log as CSV",
      { "200": { description: "CSV attachment", content: { "text/csv": { schema: str } } }, "400": err },
      {
        parameters: [
          q("start", { type: "string", format: "date" }),
          q("end", { type: "string", format: "date" }),
          q("search", str),
          q("eventName", str),
          q("userEmail", str),
        ],
      },
    ),
  },
  [`${dp}/workbooks`]: {
    get: op("E8 List workbooks", { "200": ok(wsList) }, { parameters: [dep, q("folderId", { type: ["integer", "null"], minimum: 0 }), ...cursorQ] }),
  },
  [`${dp}/workbooks/{workbookId}`]: { get: op("E9 Get a workbook", { "200": ok(ref("Workbook")) }, { parameters: [dep, p("workbookId", int)] }) },
  [`${dp}/workbooks/{workbookId}/duplicate`]: {
    post: op(
      "E10 Clone a workbook",
      { "200": ok(ref("Workbook")), "400": err, "403": err },
      { parameters: [dep, p("workbookId", int)], ...body(o({ shared: bool }), false) },
    ),
  },
  [`${dp}/workbooks/by-slug/{slug}`]: {
    put: op(
      "E11 Create or update a workbook by slug",
      { "200": ok(ref("Workbook")), "409": err, "422": err },
      { parameters: [dep, p("slug")], ...body(o({ folderId: int, meta: obj, name: str })) },
    ),
  },
  [`${dp}/workspace/bulk-move`]: {
    post: op(
      "E12 Move workspace items in bulk",
      { "200": ok(o({ moved: arr(ref("Workbook")), failed }, ["moved", "failed"])), "422": err },
      { parameters: [dep], ...body(o({ items: { ...arr(refItem), minItems: 1, maxItems: 100 }, folderId: nul("integer") }, ["items", "folderId"])) },
    ),
  },
  [`${dp}/workspace/bulk-delete`]: {
    post: op(
      "Delete workspace items in bulk",
      { "200": ok(o({ deleted: arr(refItem), failed }, ["deleted", "failed"])), "422": err },
      { parameters: [dep], ...body(o({ items: { ...arr(refItem), minItems: 1, maxItems: 100 } }, ["items"])) },
    ),
  },
  [`${dp}/folders`]: {
    get: op("List folders (one level)", { "200": ok(list(ref("Folder"), { count: int })) }, { parameters: [dep, q("parentId", int), ...cursorQ] }),
    post: op(
      "Create a folder",
      { "201": ok(ref("Folder"), "Created"), "400": err, "422": err },
      { parameters: [dep], ...body(o({ name: str, parentId: nul("integer"), position: int }, ["name"])) },
    ),
  },
  [`${dp}/folders/{folderId}`]: { delete: op("Delete a folder", { "204": { description: "Deleted" }, "400": err }, { parameters: [dep, p("folderId", int)] }) },
  [`${bdp}/branches`]: {
    get: op("List branches", { "200": ok(list(ref("Branch"))) }, { parameters: [dep, ...cursorQ] }),
    post: op(
      "Create a branch",
      { "201": ok(o({ data: ref("Branch") }), "Created"), "400": err, "409": err },
      { parameters: [dep], ...body(o({ name: str, from: str, activate: bool }, ["name"])) },
    ),
    delete: op(
      "Delete a branch (children re-parented)",
      { "204": { description: "Deleted" }, "400": err },
      { parameters: [dep, q("branchName", str, true), q("removeOnUpstream", bool)] },
    ),
  },
  [`${bdp}/branches/staging-environment`]: {
    put: op(
      "E4 Enable or disable a branch's staging environment",
      { "200": ok(o({ data: ref("Branch") })), "422": err },
      { parameters: [dep], ...body(o({ enabled: bool, branchName: str, branchId: int }, ["enabled"])) },
    ),
  },
};

export const OPENAPI: S = {
  openapi: "3.1.0",
  info: { title: "Analytics Platform API", version: "1.0.0", description: "Independent implementation of the platform management API." },
  servers: [{ url: "/" }],
  components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } }, schemas },
  security: [{ bearerAuth: [] }],
  paths,
};
