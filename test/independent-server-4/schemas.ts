/** Shared JSON Schemas (registered with addSchema; referenced as { $ref: 'Name#' }). */
type S = Record<string, unknown>;
const nul = (t: string | string[]): string[] => [...(Array.isArray(t) ? t : [t]), "null"];
const anyObj: S = { type: "object", additionalProperties: true };
export const ref = (name: string): S => ({ $ref: `${name}#` });
export const nullable = (name: string): S => ({ anyOf: [ref(name), { type: "null" }] });
const sizes = (item: S): S => ({
  type: "object",
  properties: Object.fromEntries(["lg", "md", "sm", "xs", "xxs"].map((k) => [k, item])),
  additionalProperties: false,
});
export const WIDGET_TYPES = ["CHART", "TEXT", "FILTER", "AI", "TIME_GRAIN", "PARENT", "SPACER", "DIVIDER", "CONTAINER"];

export const sharedSchemas: S[] = [
  {
    $id: "Error",
    type: "object",
    required: ["error", "message", "statusCode"],
    properties: {
      error: { type: "string", description: "Human-readable message (same as message)." },
      message: { type: "string" },
      statusCode: { type: "integer" },
      code: { type: "string", description: "Machine-readable code, e.g. upsert_branch_changed, validation_failed." },
      details: { type: "array", items: anyObj },
    },
  },
  {
    $id: "PageInfo",
    type: "object",
    required: ["hasNextPage", "hasPreviousPage"],
    properties: {
      hasNextPage: { type: "boolean" },
      hasPreviousPage: { type: "boolean" },
      startCursor: { type: nul("string") },
      endCursor: { type: nul("string") },
    },
  },
  {
    $id: "OffsetPagination",
    type: "object",
    required: ["offset", "limit", "total"],
    properties: { offset: { type: "integer" }, limit: { type: "integer" }, total: { type: "integer" } },
  },
  {
    $id: "ResourceOwner",
    type: "object",
    required: ["id", "email"],
    properties: { id: { type: "integer" }, email: { type: "string" }, firstName: { type: nul("string") }, picture: { type: nul("string") } },
  },
  {
    $id: "WidgetPosition",
    type: "object",
    required: ["x", "y", "w", "h"],
    properties: { x: { type: "integer" }, y: { type: "integer" }, w: { type: "integer" }, h: { type: "integer" } },
  },
  {
    $id: "DashboardWidget",
    type: "object",
    required: ["id", "type", "position"],
    properties: {
      id: { type: "string" },
      type: { type: "string", enum: WIDGET_TYPES },
      position: ref("WidgetPosition"),
      responsiveLayouts: sizes(nullable("WidgetPosition")),
      config: { type: nul("object"), additionalProperties: true },
      style: { type: nul("object"), additionalProperties: true },
    },
  },
  {
    $id: "DashboardLayout",
    type: "object",
    properties: {
      breakpoints: { anyOf: [sizes({ type: nul("integer") }), { type: "null" }] },
      cols: { anyOf: [sizes({ type: nul("integer") }), { type: "null" }] },
      containerPadding: { type: nul("array"), items: { type: "integer" } },
      margin: { type: nul("array"), items: { type: "integer" } },
      rowHeight: { type: nul("integer") },
    },
  },
  {
    $id: "DashboardAppSource",
    type: "object",
    properties: {
      entry: { type: nul("string"), maxLength: 255 },
      files: { type: nul("object"), additionalProperties: { type: "string" } },
      html: { type: nul("string") },
      manifest: {
        type: nul("object"),
        properties: { dependencies: { type: nul("object"), additionalProperties: { type: "string" } }, version: { type: nul("integer") } },
      },
    },
  },
  {
    $id: "DashboardConfig",
    type: "object",
    properties: {
      kind: { type: nul("string"), enum: ["CLASSIC", "APP", null] },
      title: { type: nul("string") },
      description: { type: nul("string") },
      widgets: { type: nul("array"), items: ref("DashboardWidget") },
      layout: nullable("DashboardLayout"),
      settings: { type: nul("object"), additionalProperties: true },
      theme: { type: nul("object"), additionalProperties: true },
      app: nullable("DashboardAppSource"),
    },
  },
  {
    $id: "ReportSnapshot",
    type: "object",
    required: ["id", "reportId", "versionNumber"],
    properties: {
      id: { type: "integer" },
      reportId: { type: "integer" },
      versionNumber: { type: "integer" },
      kind: { type: nul("string"), enum: ["vega", "table", "kpi", "html", "map", null] },
      name: { type: nul("string") },
      title: { type: nul("string") },
      description: { type: nul("string") },
      sqlQuery: { type: nul("string") },
      pythonCode: { type: nul("string") },
      spec: { type: ["string", "object", "null"], additionalProperties: true },
      meta: { type: nul("object"), additionalProperties: true },
      isSourceReport: { type: nul("boolean") },
      fillMissingRows: {
        type: nul("object"),
        required: ["member"],
        properties: { member: { type: "string" }, excludedDimensions: { type: nul("array"), items: { type: "string" } } },
      },
      periodComparisons: {
        type: nul("array"),
        items: {
          type: "object",
          required: ["measure", "timeDimension", "offset"],
          properties: {
            measure: { type: "string" },
            timeDimension: { type: "string" },
            offset: { type: "object", required: ["amount", "unit"], properties: { amount: { type: "integer" }, unit: { type: "string" } } },
            outputs: { type: nul("array"), items: { type: "string" } },
          },
        },
      },
      preferences: {
        type: nul("object"),
        properties: {
          columnFormats: {
            type: "object",
            additionalProperties: {
              type: "object",
              properties: { type: { type: "string", enum: ["currency", "percent", "number"] }, decimalPlaces: { type: nul("integer") } },
            },
          },
        },
      },
    },
  },
  {
    $id: "Dashboard",
    type: "object",
    required: ["id", "publicId", "deploymentId", "workbookId", "status", "allowEmbed", "config", "versionNumber", "versionId", "reportSnapshots"],
    properties: {
      id: { type: "integer" },
      publicId: { type: "string" },
      deploymentId: { type: "integer" },
      workbookId: { type: "integer" },
      status: { type: "string", enum: ["draft", "published", "archived"] },
      allowEmbed: { type: "boolean" },
      config: ref("DashboardConfig"),
      versionNumber: { type: "integer" },
      versionId: { type: "integer" },
      reportSnapshots: { type: "array", items: ref("ReportSnapshot") },
      createdBy: { type: nul("integer") },
      title: { type: nul("string") },
      description: { type: nul("string") },
      fromSharedWorkspace: { type: nul("boolean") },
      restrictDataDownload: { type: nul("boolean") },
      useBoardDashboards: { type: nul("boolean") },
    },
  },
  {
    $id: "Workbook",
    type: "object",
    required: ["id", "deploymentId", "name", "type", "meta", "calculatedFields", "createdAt", "updatedAt"],
    properties: {
      id: { type: "integer" },
      deploymentId: { type: "integer" },
      name: { type: "string" },
      type: { type: "string", enum: ["FOLDER", "WORKBOOK", "REPORT"] },
      meta: anyObj,
      calculatedFields: anyObj,
      createdAt: { type: "string", format: "date-time" },
      updatedAt: { type: "string", format: "date-time" },
      createdBy: { type: "integer" },
      userId: { type: nul("number") },
      user: nullable("ResourceOwner"),
      folderId: { type: nul("number") },
      folderPath: {
        type: "array",
        description: "Folders from the workspace root down to and including the containing folder.",
        items: { type: "object", required: ["id", "name"], properties: { id: { type: "integer" }, name: { type: "string" } } },
      },
      isFavorite: { type: nul("boolean") },
      slug: { type: nul("string") },
      dashboardDraft: nullable("DashboardConfig"),
      dashboardPublished: nullable("DashboardConfig"),
      publishedDashboard: nullable("Dashboard"),
    },
  },
  {
    $id: "WorkspaceItemRef",
    type: "object",
    required: ["type", "id"],
    properties: { type: { type: "string", enum: ["WORKBOOK", "REPORT", "FOLDER"] }, id: { type: "integer" } },
  },
  {
    $id: "ApiCredential",
    type: "object",
    properties: {
      type: { type: "string" },
      version: { type: "integer" },
      database: { type: "string" },
      host: { type: "string" },
      port: { type: "integer" },
      url: { type: "string" },
    },
  },
  {
    $id: "Environment",
    type: "object",
    required: ["id", "type", "branch", "user", "api_credentials"],
    properties: {
      id: { type: "string" },
      name: { type: "string" },
      type: { type: "string", enum: ["production", "staging", "development"] },
      branch: { type: "string" },
      user: { type: "string" },
      api_credentials: { type: "array", items: ref("ApiCredential") },
    },
  },
  { $id: "EnvVar", type: "object", required: ["name", "value"], properties: { name: { type: "string" }, value: { type: "string" } } },
  {
    $id: "Branch",
    type: "object",
    required: ["id", "name", "parentBranch", "lastHash", "isStagingEnvironmentEnabled"],
    properties: {
      id: { type: "integer" },
      name: { type: "string" },
      parentBranch: { type: "string" },
      lastHash: { type: "string" },
      isStagingEnvironmentEnabled: { type: "boolean" },
      kind: { type: "string", enum: ["production", "shared", "personal"] },
    },
  },
  {
    $id: "DeploymentVersion",
    type: "object",
    required: ["releaseChannelVersion", "version", "releaseChannel", "isLatestInChannel", "isCurrent"],
    properties: {
      releaseChannelVersion: { type: "string" },
      version: { type: "string" },
      releaseChannel: { type: "string" },
      isLatestInChannel: { type: "boolean" },
      isCurrent: { type: "boolean" },
    },
  },
  {
    $id: "Deployment",
    type: "object",
    required: ["id", "name", "created_at"],
    properties: {
      id: { type: "string" },
      name: { type: "string" },
      created_at: { type: "string", format: "date-time" },
      cloudProvider: { type: "string" },
      region: { type: "string" },
      releaseChannel: { type: "string" },
      releaseChannelVersion: { type: "string" },
      version: { type: "string" },
      image: { type: "string" },
      releaseChannelVersionHold: { type: "boolean" },
      template: { type: nul("string") },
      templateVariables: { type: "object", additionalProperties: { type: "string" } },
      defaultLaunchpadViewGroup: { type: nul("string") },
      launchpadTabs: { type: "array", items: {} },
      creationMethod: { type: "string" },
      deployMode: { type: "string" },
      creationStep: { type: "integer" },
    },
  },
];

export const errorResponses = (...codes: number[]): Record<number, S> =>
  Object.fromEntries(codes.map((c) => [c, { ...ref("Error"), description: `Error ${c}` }]));

export const STD_ERRORS = [401, 403, 422, 429];
export const dataOf = (schema: S): S => ({ type: "object", required: ["data"], properties: { data: schema } });
/** Path params: integer ids first, then string ids. */
export const params = (ints: string[], strs: string[] = []): S => ({
  type: "object",
  required: [...ints, ...strs],
  properties: Object.fromEntries([...ints.map((n) => [n, { type: "integer", minimum: 1 }]), ...strs.map((n) => [n, { type: "string", minLength: 1 }])]),
});
export const cursorQuery: S = {
  first: { type: "integer", minimum: 1, description: "Page size; default 10, values above 25 are clamped to 25." },
  after: { type: "string", description: "Opaque cursor (endCursor of the previous page); expires after 15 minutes." },
};
export const cursorListResponse = (item: S): S => ({
  type: "object",
  required: ["items", "pageInfo"],
  properties: {
    items: { type: "array", items: item },
    pageInfo: ref("PageInfo"),
    data: { type: "array", items: item, deprecated: true },
    count: { type: nul("integer"), minimum: 0, deprecated: true },
    pagination: { anyOf: [ref("OffsetPagination"), { type: "null" }], deprecated: true },
  },
});
export const anyObject = anyObj;
export { nul };
