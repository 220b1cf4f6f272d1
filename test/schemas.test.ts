import { describe, it, expect, beforeAll } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../core/api/paths.js";
import { bundledOpenApi } from "../core/api/schemas.js";
import { schemaTypesModule } from "../scripts/schema-types.js";
import {
  type Doc,
  newAjv,
  openapiPath,
  validators,
  bundled,
  dashboard,
  deref,
  envControl,
  envList,
  load,
  ok,
  pageInfo,
  version,
  widget,
  workbook,
} from "./schemas-fixtures.js";

beforeAll(load);

describe("loading", () => {
  it("bundles without external refs and has the expected document header", () => {
    const refs = [...JSON.stringify(bundled).matchAll(/"\$ref":"([^"]*)"/g)].map((x) => x[1]);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((r) => !r.startsWith("#"))).toEqual([]);
    expect(bundled.openapi).toBe("3.1.0");
    expect(bundled.jsonSchemaDialect).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(bundled.info).toMatchObject({ title: "Analytics Platform API", version: "1.0.0" });
    expect(bundled.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("compiles every component schema, without $ref left after dereference", () => {
    expect(validators.size).toBe(Object.keys(deref.components.schemas).length);
    expect(validators.size).toBeGreaterThanOrEqual(37);
    expect(JSON.stringify(deref.components.schemas)).not.toContain('"$ref"');
  });

  it("schemas/openapi.bundled.json, which runs read, is the bundle of schemas/openapi.json and its parts (npm run schemas writes it)", async () => {
    expect(await bundledOpenApi(), "schemas/openapi.bundled.json is stale: run npm run schemas").toEqual(bundled);
  });

  it("core/api/schema-types.ts, which types api.call, is generated from the bundle as it stands (npm run schemas writes it)", async () => {
    const written = readFileSync(join(packageRoot, "core", "api", "schema-types.ts"), "utf8");
    expect(written, "core/api/schema-types.ts is stale: run npm run schemas").toBe(schemaTypesModule(await bundledOpenApi()));
  });

  it("every component is valid under the 2020-12 meta-schema (the suite's Schemas do not check it at run time)", () => {
    const ajv = newAjv();
    const invalid = Object.entries(bundled.components.schemas).filter(([, schema]) => !ajv.validateSchema(schema as object));
    expect(invalid.map(([name]) => `${name}: ${ajv.errorsText()}`)).toEqual([]);
  });

  it("covers E1..E14 with operationIds and refers to schemas only through components", () => {
    const seen = new Set<string>();
    const ids = new Set<string>();
    const raw = JSON.parse(readFileSync(openapiPath, "utf8")) as Doc;
    for (const item of Object.values(raw.paths)) {
      for (const op of Object.values(item)) {
        seen.add(op["x-spec-ref"]);
        expect(typeof op.operationId).toBe("string");
        expect(ids.has(op.operationId)).toBe(false);
        ids.add(op.operationId);
      }
    }
    expect([...seen].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))).toEqual(Array.from({ length: 14 }, (_, i) => `E${i + 1}`));
    const refs = [...JSON.stringify(raw.paths).matchAll(/"\$ref":"([^"]*)"/g)].map((x) => x[1]);
    for (const r of refs) expect(r).toMatch(/^#\/components\/schemas\/[A-Za-z]+$/);
    for (const s of Object.values(raw.components.schemas)) expect(s.$ref).toMatch(/^[A-Za-z]+\.schema\.json$/);
  });
});

describe("Workbook", () => {
  it("accepts date and date-time timestamps, nulls and extra fields", () => {
    expect(ok("Workbook", workbook())).toBe(true);
    expect(ok("Workbook", { ...workbook(), createdAt: "2024-05-01T10:00:00Z", updatedAt: "2024-05-01" })).toBe(true);
    expect(ok("Workbook", { ...workbook(), folderId: null, userId: null, user: null, slug: null, isFavorite: null })).toBe(true);
    expect(ok("Workbook", { ...workbook(), promotion: { anything: 1 } })).toBe(true);
    expect(ok("Workbook", { ...workbook(), dashboardDraft: null, dashboardPublished: {}, publishedDashboard: dashboard() })).toBe(true);
    expect(ok("Workbook", { ...workbook(), user: { id: 1, email: "a@b.c", firstName: null, picture: null } })).toBe(true);
  });

  it("rejects bad timestamps, missing meta, bad type, bad folderPath", () => {
    expect(ok("Workbook", { ...workbook(), createdAt: "yesterday" })).toBe(false);
    const { meta: _meta, ...noMeta } = workbook();
    expect(ok("Workbook", noMeta)).toBe(false);
    expect(ok("Workbook", { ...workbook(), type: "DASHBOARD" })).toBe(false);
    expect(ok("Workbook", { ...workbook(), id: "1" })).toBe(false);
    expect(ok("Workbook", { ...workbook(), folderPath: [{ id: 1 }] })).toBe(false);
    expect(ok("Workbook", { ...workbook(), folderPath: [{ id: 1, name: "Root" }] })).toBe(true);
    expect(ok("Workbook", { ...workbook(), user: { id: 1 } })).toBe(false);
  });

  it("WorkbooksListResponse follows E8", () => {
    expect(ok("WorkbooksListResponse", { items: [workbook()], data: [workbook()], count: 1, pageInfo })).toBe(true);
    expect(ok("WorkbooksListResponse", { items: [], data: [], count: null, pageInfo: null })).toBe(true);
    expect(ok("WorkbooksListResponse", { items: [] })).toBe(false);
    expect(ok("WorkbooksListResponse", { items: [], data: [], count: -1 })).toBe(false);
  });
});

describe("Dashboard family", () => {
  it("DashboardWidget enforces the 9 advertised types", () => {
    expect(ok("DashboardWidget", widget())).toBe(true);
    expect(ok("DashboardWidget", { ...widget(), type: "CONTAINER", config: { layout: "tabs" }, style: null })).toBe(true);
    expect(ok("DashboardWidget", { ...widget(), type: "TABS_CONTAINER" })).toBe(false);
    expect(ok("DashboardWidget", { ...widget(), position: { x: 0, y: 0, w: 4 } })).toBe(false);
    expect(ok("DashboardWidget", { ...widget(), responsiveLayouts: { lg: { x: 0, y: 0, w: 1, h: 1 }, sm: null } })).toBe(true);
  });

  it("DashboardAppSource entry is at most 255 characters", () => {
    expect(ok("DashboardAppSource", { entry: "a".repeat(255) })).toBe(true);
    expect(ok("DashboardAppSource", { entry: "a".repeat(256) })).toBe(false);
    expect(ok("DashboardAppSource", { entry: null, files: null, html: null, manifest: null })).toBe(true);
    expect(ok("DashboardAppSource", { files: { "index.js": 1 } })).toBe(false);
  });

  it("DashboardConfig and DashboardLayout fields are nullable", () => {
    const allNull = { kind: null, title: null, description: null, widgets: null, layout: null, settings: null, theme: null, app: null };
    expect(ok("DashboardConfig", allNull)).toBe(true);
    expect(ok("DashboardConfig", { kind: "PAGE" })).toBe(false);
    expect(ok("DashboardLayout", { breakpoints: { lg: 1200, xxs: null }, cols: null, containerPadding: [10, 10], rowHeight: 30 })).toBe(true);
    expect(ok("DashboardLayout", { rowHeight: 1.5 })).toBe(false);
  });

  it("Dashboard and ReportSnapshot follow their tables", () => {
    expect(ok("Dashboard", dashboard())).toBe(true);
    expect(ok("Dashboard", { ...dashboard(), status: "deleted" })).toBe(false);
    const { config: _c, ...noConfig } = dashboard();
    expect(ok("Dashboard", noConfig)).toBe(false);
    expect(
      ok("ReportSnapshot", { id: 1, reportId: 2, versionNumber: 3, kind: null, spec: "{}", fillMissingRows: { member: "m", excludedDimensions: null } }),
    ).toBe(true);
    expect(ok("ReportSnapshot", { id: 1, reportId: 2, versionNumber: 3, kind: "sankey" })).toBe(false);
    expect(ok("ReportSnapshot", { id: 1, reportId: 2, versionNumber: 3, fillMissingRows: {} })).toBe(false);
    expect(
      ok("ReportSnapshot", { id: 1, reportId: 2, versionNumber: 3, preferences: { columnFormats: { c: { type: "percent", decimalPlaces: null } } } }),
    ).toBe(true);
  });
});

describe("Deployments, environments, versions", () => {
  it("Deployment and DeploymentsListResponse", () => {
    const d = { id: "d1", name: "Prod", created_at: "2024-05-01T10:00:00Z", extra: true };
    expect(ok("Deployment", d)).toBe(true);
    expect(ok("Deployment", { ...d, created_at: "2024-13-01T10:00:00Z" })).toBe(false);
    expect(ok("Deployment", { ...d, created_at: "1 May 2024" })).toBe(false);
    expect(ok("DeploymentsListResponse", { data: { deployments: [d] }, pagination: { offset: 0, limit: 20, total: 1 }, items: [d] })).toBe(true);
    expect(ok("DeploymentsListResponse", { data: { deployments: [d] } })).toBe(false);
  });

  it("Environment accepts both documented shapes, strict type enum", () => {
    expect(ok("Environment", envList)).toBe(true);
    expect(ok("Environment", envControl)).toBe(true);
    expect(ok("Environment", { ...envList, type: "preview" })).toBe(false);
    expect(ok("Environment", { ...envList, api_credentials: [{ port: "5432" }] })).toBe(false);
    expect(ok("Environment", { id: 5, type: "production" })).toBe(false);
    expect(ok("Environment", { ...envControl, name: 7 })).toBe(false);
  });

  it("EnvironmentsListResponse accepts cursor and control-plane shapes, pagination null", () => {
    expect(ok("EnvironmentsListResponse", { items: [envList], pageInfo, data: [envList], pagination: null })).toBe(true);
    expect(ok("EnvironmentsListResponse", { items: [envList], pageInfo, pagination: { offset: 0, limit: 20, total: 1 } })).toBe(true);
    expect(ok("EnvironmentsListResponse", { data: { environments: [envControl] }, pagination: null })).toBe(true);
    expect(ok("EnvironmentsListResponse", { items: envList })).toBe(false);
    expect(ok("EnvironmentsListResponse", { items: [envList], pageInfo: { hasNextPage: true } })).toBe(false);
  });

  it("DeploymentVersion and VersionsListResponse", () => {
    expect(ok("DeploymentVersion", version())).toBe(true);
    const { isCurrent: _i, ...noCurrent } = version();
    expect(ok("DeploymentVersion", noCurrent)).toBe(false);
    expect(ok("VersionsListResponse", { data: [version()] })).toBe(true);
    expect(ok("VersionsListResponse", { items: [version()], pageInfo })).toBe(true);
    expect(ok("VersionsListResponse", { versions: [version()] })).toBe(false);
  });

  it("PageInfo and OffsetPagination", () => {
    expect(ok("PageInfo", { hasNextPage: true, hasPreviousPage: false })).toBe(true);
    expect(ok("PageInfo", { hasNextPage: true })).toBe(false);
    expect(ok("OffsetPagination", { offset: 0, limit: 20, total: "3" })).toBe(false);
  });
});

describe("Tokens, branches, env vars", () => {
  it("MetadataTokenResponse allows extra fields, requires dates", () => {
    const data = { token: "a.b.c", created_at: "2024-05-01T10:00:00Z", expires_at: "2024-05-02T10:00:00Z", security_context: { tenant: 1 }, scopes: ["meta"] };
    expect(ok("MetadataTokenResponse", { data })).toBe(true);
    expect(ok("MetadataTokenResult", { ...data, expires_at: "tomorrow" })).toBe(false);
    expect(ok("MetadataTokenRequest", { security_context: {}, expires_in: 3600 })).toBe(true);
    expect(ok("MetadataTokenRequest", { security_context: {}, expires_in: 0 })).toBe(false);
    expect(ok("MetadataTokenRequest", { expires_in: 60 })).toBe(false);
    expect(ok("MetadataTokenRequest", { security_context: {}, extra: 1 })).toBe(false);
  });

  it("StagingToggleRequest needs enabled and exactly one branch selector", () => {
    expect(ok("StagingToggleRequest", { enabled: true, branchName: "dev" })).toBe(true);
    expect(ok("StagingToggleRequest", { enabled: false, branchId: 4 })).toBe(true);
    expect(ok("StagingToggleRequest", { enabled: true })).toBe(false);
    expect(ok("StagingToggleRequest", { branchName: "dev" })).toBe(false);
    expect(ok("StagingToggleRequest", { enabled: true, branchId: "4" })).toBe(false);
  });

  it("BranchResponse and BranchesListResponse", () => {
    const b = { id: 4, name: "dev", parentBranch: "main", lastHash: "abc", isStagingEnvironmentEnabled: true };
    expect(ok("BranchResponse", { data: b })).toBe(true);
    expect(ok("BranchResponse", { data: { ...b, id: "4" } })).toBe(false);
    expect(ok("BranchesListResponse", { items: [{ id: 1, name: "main", parentBranch: null }], pageInfo })).toBe(true);
    expect(ok("BranchesListResponse", { items: [{ id: 1 }] })).toBe(false);
  });

  it("EnvVarsListResponse and EnvVarsPutRequest", () => {
    const items = [{ name: "DB_PASS", value: "[ENCRYPTED]" }];
    expect(ok("EnvVarsListResponse", { items, data: items, pageInfo })).toBe(true);
    expect(ok("EnvVarsListResponse", { pageInfo })).toBe(false);
    expect(ok("EnvVarsListResponse", { items, pageInfo: {} })).toBe(false);
    expect(ok("EnvironmentVariable", { name: "A" })).toBe(false);
    expect(ok("EnvVarsPutRequest", { env_variables: [{ name: "_A1", value: "x" }] })).toBe(true);
    expect(ok("EnvVarsPutRequest", { env_variables: [{ name: "1A", value: "x" }] })).toBe(false);
    expect(ok("EnvVarsPutRequest", { env_variables: [{ name: "A", value: "[ENCRYPTED]" }] })).toBe(false);
    expect(ok("EnvVarsPutRequest", { envVariables: [] })).toBe(false);
  });
});

describe("Workspace writes and errors", () => {
  it("BulkMoveRequest limits and closedness", () => {
    const item = { type: "WORKBOOK", id: 1 };
    expect(ok("BulkMoveRequest", { items: [item, { type: "FOLDER", id: 2 }], folderId: null })).toBe(true);
    expect(ok("BulkMoveRequest", { items: Array.from({ length: 100 }, (_, i) => ({ type: "REPORT", id: i })), folderId: 3 })).toBe(true);
    expect(ok("BulkMoveRequest", { items: Array.from({ length: 101 }, (_, i) => ({ type: "REPORT", id: i })), folderId: 3 })).toBe(false);
    // The spec does not say folderId is required.
    expect(ok("BulkMoveRequest", { items: [item] })).toBe(true);
    expect(ok("BulkMoveRequest", { folderId: null })).toBe(false);
    expect(ok("BulkMoveRequest", { items: [{ type: "DASHBOARD", id: 1 }], folderId: null })).toBe(false);
    expect(ok("WorkspaceItemRef", { type: "WORKBOOK", id: 1.5 })).toBe(false);
  });

  it("BulkMoveResponse and BulkMoveFailure", () => {
    const failure = { type: "FOLDER", id: 2, error: { message: "no access", status: 403 } };
    expect(ok("BulkMoveResponse", { moved: [workbook()], failed: [failure] })).toBe(true);
    expect(ok("BulkMoveResponse", { moved: [] })).toBe(false);
    expect(ok("BulkMoveFailure", { ...failure, error: { message: "x" } })).toBe(false);
  });

  it("Clone and upsert requests are closed", () => {
    expect(ok("CloneWorkbookRequest", {})).toBe(true);
    expect(ok("CloneWorkbookRequest", { shared: "yes" })).toBe(false);
    expect(ok("UpsertWorkbookRequest", { name: "n", folderId: 3, meta: { a: 1 } })).toBe(true);
    expect(ok("UpsertWorkbookRequest", { slug: "x" })).toBe(false);
    expect(ok("UpdateDeploymentRequest", { releaseChannel: "latest", templateVariables: { A: "b" } })).toBe(true);
    expect(ok("UpdateDeploymentRequest", { templateVariables: { A: 1 } })).toBe(false);
    expect(ok("UpdateDeploymentRequest", { image: "x" })).toBe(false);
  });

  it("ErrorBody accepts error or message; ConflictError needs its code", () => {
    expect(ok("ErrorBody", { error: "bad" })).toBe(true);
    expect(ok("ErrorBody", { message: "bad", statusCode: 400 })).toBe(true);
    expect(ok("ErrorBody", { statusCode: 400 })).toBe(false);
    expect(ok("ConflictError", { code: "upsert_branch_changed" })).toBe(true);
    expect(ok("ConflictError", { code: "conflict" })).toBe(false);
  });

  it("FoldersListResponse", () => {
    expect(ok("FoldersListResponse", { items: [{ id: 1, name: "F", parentId: null, createdAt: "2024-05-01" }], pageInfo, count: 1 })).toBe(true);
    expect(ok("FoldersListResponse", { items: [{ id: "1", name: "F" }] })).toBe(false);
  });
});

/**
 * Choices the spec leaves open, as the platform's published OpenAPI document and real servers make
 * them (samples written from the published docs, not copied): each must validate, and a near miss must not,
 * so that the schemas stay strict where the spec is.
 */
