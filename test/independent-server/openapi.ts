// OpenAPI 3.1 document: component schemas.
import { buildPaths } from "./openapi-paths.js";

type S = Record<string, unknown>;
export const ref = (n: string): S => ({ $ref: `#/components/schemas/${n}` });
const nul = (s: S): S => ({ oneOf: [s, { type: "null" }] });
const str: S = { type: "string" };
const int: S = { type: "integer" };
const bool: S = { type: "boolean" };
const obj: S = { type: "object", additionalProperties: true };
const bp = (item: S): S => ({ type: "object", properties: Object.fromEntries(["lg", "md", "sm", "xs", "xxs"].map((k) => [k, nul(item)])) });

const schemas: Record<string, S> = {
  ControlError: { type: "object", required: ["error"], properties: { error: str, code: str } },
  PlatformError: { type: "object", required: ["message", "code"], properties: { message: str, code: str } },
  Deployment: {
    type: "object",
    required: ["id", "name", "created_at"],
    properties: { id: str, name: str, created_at: { type: "string", format: "date-time" }, region: str, status: str },
  },
  OffsetPagination: { type: "object", required: ["offset", "limit", "total"], properties: { offset: int, limit: int, total: int } },
  PageInfo: {
    type: "object",
    required: ["hasNextPage", "hasPreviousPage"],
    properties: { hasNextPage: bool, hasPreviousPage: bool, startCursor: nul(str), endCursor: nul(str) },
  },
  ApiCredential: { type: "object", properties: { type: str, version: int, database: str, host: str, port: int, url: str } },
  Environment: {
    type: "object",
    required: ["id", "type", "branch", "user", "api_credentials"],
    properties: {
      id: str,
      type: { type: "string", enum: ["production", "staging", "development"] },
      branch: str,
      user: str,
      api_credentials: { type: "array", items: ref("ApiCredential") },
    },
  },
  EnvironmentVariable: { type: "object", required: ["name", "value"], properties: { name: str, value: str } },
  MetaToken: {
    type: "object",
    required: ["token", "created_at", "expires_at"],
    properties: { token: str, created_at: { type: "string", format: "date-time" }, expires_at: { type: "string", format: "date-time" } },
  },
  Branch: {
    type: "object",
    required: ["id", "name", "parentBranch", "lastHash", "isStagingEnvironmentEnabled"],
    properties: { id: int, name: str, parentBranch: str, lastHash: str, isStagingEnvironmentEnabled: bool },
  },
  BranchListItem: {
    allOf: [
      ref("Branch"),
      {
        type: "object",
        properties: { kind: { type: "string", enum: ["production", "shared", "personal"] }, owner: str, createdAt: { type: "string", format: "date-time" } },
      },
    ],
  },
  DeploymentVersion: {
    type: "object",
    required: ["releaseChannelVersion", "version", "releaseChannel", "isLatestInChannel", "isCurrent"],
    properties: { releaseChannelVersion: str, version: str, releaseChannel: str, isLatestInChannel: bool, isCurrent: bool },
  },
  DeploymentSettings: {
    type: "object",
    properties: {
      id: str,
      name: str,
      created_at: { type: "string", format: "date-time" },
      cloudProvider: str,
      region: str,
      releaseChannel: str,
      releaseChannelVersion: str,
      version: nul(str),
      releaseChannelVersionHold: bool,
      image: str,
      template: str,
      templateVariables: obj,
      defaultLaunchpadViewGroup: nul(str),
      launchpadTabs: { type: "array", items: {} },
      creationMethod: str,
      deployMode: str,
      envVarCount: int,
    },
  },
  DeploymentUpdate: {
    type: "object",
    additionalProperties: true,
    properties: {
      cloudProvider: { type: "string", enum: ["hosted", "<hosted>", "aws", "gcp"] },
      region: str,
      releaseChannel: str,
      releaseChannelVersion: { type: "string", description: "1.7.20, v1.7.20 or the full image-style reference of a listed version" },
      releaseChannelVersionHold: bool,
      template: str,
      templateVariables: { type: "object", additionalProperties: true, description: "merged key by key; null removes a key" },
      defaultLaunchpadViewGroup: nul(str),
      launchpadTabs: { type: "array", items: {} },
      creationMethod: { type: "string", enum: ["upload", "hosted", "<hosted>", "github", "ssh"] },
      deployMode: { type: "string", enum: ["git", "cli"] },
    },
  },
  DeploymentCreate: { allOf: [ref("DeploymentUpdate"), { type: "object", required: ["name"], properties: { name: str } }] },
  ResourceOwner: { type: "object", required: ["id", "email"], properties: { id: int, email: str, firstName: nul(str), picture: nul(str) } },
  Position: { type: "object", required: ["x", "y", "w", "h"], properties: { x: int, y: int, w: int, h: int } },
  DashboardWidget: {
    type: "object",
    required: ["id", "type", "position"],
    properties: {
      id: str,
      type: { type: "string", enum: ["CHART", "TEXT", "FILTER", "AI", "TIME_GRAIN", "PARENT", "SPACER", "DIVIDER", "CONTAINER"] },
      position: ref("Position"),
      responsiveLayouts: bp(ref("Position")),
      config: nul(obj),
      style: nul(obj),
    },
  },
  DashboardLayout: {
    type: "object",
    properties: {
      breakpoints: nul(bp(int)),
      cols: nul(bp(int)),
      containerPadding: nul({ type: "array", items: int }),
      margin: nul({ type: "array", items: int }),
      rowHeight: nul(int),
    },
  },
  DashboardAppSource: {
    type: "object",
    properties: {
      entry: nul({ type: "string", maxLength: 255 }),
      files: nul({ type: "object", additionalProperties: str }),
      html: nul(str),
      manifest: nul({ type: "object", properties: { dependencies: nul({ type: "object", additionalProperties: str }), version: nul(int) } }),
    },
  },
  DashboardConfig: {
    type: "object",
    properties: {
      kind: nul({ type: "string", enum: ["CLASSIC", "APP"] }),
      title: nul(str),
      description: nul(str),
      widgets: nul({ type: "array", items: ref("DashboardWidget") }),
      layout: nul(ref("DashboardLayout")),
      settings: nul(obj),
      theme: nul(obj),
      app: nul(ref("DashboardAppSource")),
    },
  },
  ReportSnapshot: {
    type: "object",
    required: ["id", "reportId", "versionNumber"],
    properties: {
      id: int,
      reportId: int,
      versionNumber: int,
      kind: nul({ type: "string", enum: ["vega", "table", "kpi", "html", "map"] }),
      name: nul(str),
      title: nul(str),
      description: nul(str),
      sqlQuery: nul(str),
      pythonCode: nul(str),
      spec: { oneOf: [str, obj, { type: "null" }] },
      meta: nul(obj),
      isSourceReport: nul(bool),
      fillMissingRows: nul({ type: "object", required: ["member"], properties: { member: str, excludedDimensions: nul({ type: "array", items: str }) } }),
      periodComparisons: nul({
        type: "array",
        items: {
          type: "object",
          required: ["measure", "timeDimension", "offset"],
          properties: {
            measure: str,
            timeDimension: str,
            offset: { type: "object", required: ["amount", "unit"], properties: { amount: int, unit: str } },
            outputs: nul({ type: "array", items: str }),
          },
        },
      }),
      preferences: nul({
        type: "object",
        properties: {
          columnFormats: {
            type: "object",
            additionalProperties: {
              type: "object",
              properties: { type: { type: "string", enum: ["currency", "percent", "number"] }, decimalPlaces: nul(int) },
            },
          },
        },
      }),
    },
  },
  Dashboard: {
    type: "object",
    required: ["id", "publicId", "deploymentId", "workbookId", "status", "allowEmbed", "config", "versionNumber", "versionId", "reportSnapshots"],
    properties: {
      id: int,
      publicId: str,
      deploymentId: int,
      workbookId: int,
      status: { type: "string", enum: ["draft", "published", "archived"] },
      allowEmbed: bool,
      config: ref("DashboardConfig"),
      versionNumber: int,
      versionId: int,
      reportSnapshots: { type: "array", items: ref("ReportSnapshot") },
      createdBy: nul(int),
      title: nul(str),
      description: nul(str),
      fromSharedWorkspace: nul(bool),
      restrictDataDownload: nul(bool),
      useBoardDashboards: nul(bool),
    },
  },
  Workbook: {
    type: "object",
    required: ["id", "deploymentId", "name", "type", "meta", "calculatedFields", "createdAt", "updatedAt"],
    properties: {
      id: int,
      deploymentId: int,
      name: str,
      type: { type: "string", enum: ["FOLDER", "WORKBOOK", "REPORT"] },
      meta: obj,
      calculatedFields: obj,
      createdAt: { type: "string", format: "date" },
      updatedAt: { type: "string", format: "date-time" },
      createdBy: int,
      userId: nul({ type: "number" }),
      user: nul(ref("ResourceOwner")),
      folderId: nul({ type: "number" }),
      folderPath: {
        type: "array",
        description: "ancestors of the containing folder, nearest first",
        items: { type: "object", required: ["id", "name"], properties: { id: int, name: str } },
      },
      isFavorite: nul(bool),
      slug: nul(str),
      dashboardDraft: nul(ref("DashboardConfig")),
      dashboardPublished: nul(ref("DashboardConfig")),
      publishedDashboard: nul(ref("Dashboard")),
    },
  },
  WorkbooksListResponse: {
    type: "object",
    required: ["items", "data"],
    properties: {
      items: { type: "array", items: ref("Workbook") },
      data: { type: "array", deprecated: true, items: ref("Workbook") },
      count: { ...nul({ type: "integer", minimum: 0 }), deprecated: true },
      pageInfo: nul(ref("PageInfo")),
    },
  },
  ItemRef: { type: "object", required: ["type", "id"], properties: { type: { type: "string", enum: ["WORKBOOK", "REPORT", "FOLDER"] }, id: int } },
  ItemFailure: {
    type: "object",
    required: ["type", "id", "error"],
    properties: { type: str, id: int, error: { type: "object", required: ["message", "status"], properties: { message: str, status: int } } },
  },
  Region: { type: "object", required: ["id", "name", "cloudProvider"], properties: { id: str, name: str, cloudProvider: str, default: bool } },
  AppConfig: {
    type: "object",
    required: ["appTheme", "applyThemeGlobally", "creatorMode", "embedding", "sheetsUi", "timezoneSettings"],
    properties: { appTheme: obj, applyThemeGlobally: bool, creatorMode: bool, embedding: obj, sheetsUi: obj, timezoneSettings: obj },
  },
};

export function buildOpenApi(): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: { title: "Analytics Platform API", version: "1.0.0", description: "Independent implementation of the platform management API." },
    servers: [{ url: "/" }],
    security: [{ bearerAuth: [] }],
    paths: buildPaths(),
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "Account API key; E3 metadata JWTs only on metadata endpoints" } },
      schemas,
    },
  };
}
