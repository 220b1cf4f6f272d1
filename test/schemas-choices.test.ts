import { describe, it, expect, beforeAll } from "vitest";
import { configValidate, dashboard, envControl, load, ok, pageInfo, version, widget, workbook } from "./schemas-fixtures.js";

/** The schemas where the spec leaves a choice open, and the config file's schema. */
beforeAll(load);

describe("choices the spec leaves open", () => {
  it("timestamps: ISO 8601 dates and date-times, with or without offset or fraction", () => {
    const at = [
      "2024-01-01",
      "2024-01-01T00:00:00",
      "2024-01-01T00:00:00.123",
      "2024-01-15T10:30:00Z",
      "2024-01-15T10:30:00+02:00",
      "2024-01-15T10:30:00.5-0530",
      "2024-01-15T10:30",
    ];
    for (const t of at) {
      expect(ok("Timestamp", t), t).toBe(true);
      expect(ok("Deployment", { id: "d1", name: "Prod", created_at: t }), t).toBe(true);
      expect(ok("Workbook", { ...workbook(), createdAt: t, updatedAt: t }), t).toBe(true);
      expect(ok("MetadataTokenResult", { token: "a.b.c", created_at: t, expires_at: t }), t).toBe(true);
    }
    for (const t of [
      "2024-1-1",
      "2024-01-32",
      "2024-01-01T25:00:00",
      "2024-01-01 10:00",
      "2024-01-01T10:00:00+2",
      "1704067200",
      "",
      "2024-01-01T10:00:00Z trailing",
    ]) {
      expect(ok("Timestamp", t), t).toBe(false);
      expect(ok("Workbook", { ...workbook(), updatedAt: t }), t).toBe(false);
    }
    expect(ok("Timestamp", 1704067200)).toBe(false);
  });

  it("E1 in the published document's shape: data an array of deployments, integer ids, no created_at", () => {
    const published = { id: 12, name: "Prod", deploymentUrl: "https://prod.example.com", creationStep: "completed" };
    const pagination = { offset: 0, limit: 20, total: 1 };
    expect(ok("DeploymentsListResponse", { data: [published], items: [published], pageInfo, pagination })).toBe(true);
    expect(ok("DeploymentsListResponse", { data: [published], items: [published], pageInfo: null })).toBe(true);
    expect(ok("DeploymentsListResponse", { data: [{ ...published, id: "12", created_at: "2024-01-15T10:30:00" }] })).toBe(true);
    expect(ok("DeploymentsListResponse", { data: [{ ...published, id: 1.5 }] })).toBe(false);
    expect(ok("DeploymentsListResponse", { data: [{ id: 12 }] })).toBe(false);
    expect(ok("DeploymentsListResponse", { data: [published], items: published })).toBe(false);
    expect(ok("DeploymentsListResponse", { data: { deployments: [published] }, pagination })).toBe(false);
    expect(ok("DeploymentsListResponse", { data: { deployments: [{ id: "d1", name: "Prod" }] }, pagination })).toBe(false);
  });

  it("nulls and absences the published document allows on E2, E4 and the lists", () => {
    const nullEnv = {
      id: "env-3",
      type: "development",
      branch: null,
      user: null,
      api_credentials: [{ type: "rest", version: 1, database: null, host: null, port: null, url: null }],
    };
    expect(ok("Environment", nullEnv)).toBe(true);
    expect(ok("Environment", { ...envControl, api_credentials: { rest: { url: null }, sql: { host: null, port: null } } })).toBe(true);
    expect(ok("Environment", { type: "staging", branch: "release" })).toBe(true);
    expect(ok("Environment", { ...nullEnv, api_credentials: [{ port: "5432" }] })).toBe(false);
    expect(ok("Environment", { ...nullEnv, branch: 3 })).toBe(false);
    expect(ok("EnvironmentsListResponse", { items: [nullEnv], data: [nullEnv], pagination: null })).toBe(true);
    expect(ok("EnvironmentsListResponse", { items: [nullEnv], pageInfo: null })).toBe(true);
    expect(ok("EnvVarsListResponse", { items: [{ name: "A", value: "b" }], pageInfo: null })).toBe(true);
    expect(ok("EnvVarsListResponse", { items: [{ name: "A", value: "b" }] })).toBe(true);
    expect(ok("VersionsListResponse", { items: [version()] })).toBe(true);
    expect(ok("VersionsListResponse", { items: [version()], pageInfo: null })).toBe(true);
    expect(ok("VersionsListResponse", { items: [{ ...version(), isCurrent: null }] })).toBe(false);
    const branch = { id: 4, name: "dev", parentBranch: null, lastHash: null, isStagingEnvironmentEnabled: null };
    expect(ok("BranchResponse", { data: branch })).toBe(true);
    const { isStagingEnvironmentEnabled: _absent, ...withoutFlag } = branch;
    expect(ok("BranchResponse", { data: withoutFlag })).toBe(true);
    expect(ok("BranchResponse", { data: { name: "dev" } })).toBe(true);
    expect(ok("BranchResponse", { data: { ...branch, isStagingEnvironmentEnabled: "yes" } })).toBe(false);
    expect(ok("BranchResponse", { data: { ...branch, parentBranch: 1 } })).toBe(false);
    expect(ok("BranchResponse", { data: { id: 4 } })).toBe(false);
    expect(ok("BranchesListResponse", { items: [{ id: 1, name: "main", isStagingEnvironmentEnabled: null }], pageInfo: null })).toBe(true);
  });

  it("nested dashboard nullables: responsiveLayouts, app manifest, snapshot columnFormats", () => {
    expect(ok("DashboardWidget", { ...widget(), responsiveLayouts: null })).toBe(true);
    expect(ok("DashboardWidget", { ...widget(), responsiveLayouts: { lg: { x: 0, y: 0, w: 1 } } })).toBe(false);
    expect(ok("DashboardAppSource", { entry: "index.html", manifest: { dependencies: null, version: null } })).toBe(true);
    expect(ok("DashboardAppSource", { manifest: { dependencies: { react: 18 } } })).toBe(false);
    expect(ok("DashboardAppSource", { manifest: { version: "1" } })).toBe(false);
    const snapshot = { id: 1, reportId: 2, versionNumber: 3, preferences: { columnFormats: null } };
    expect(ok("ReportSnapshot", snapshot)).toBe(true);
    expect(ok("ReportSnapshot", { ...snapshot, preferences: { columnFormats: { c: { type: "ratio" } } } })).toBe(false);
    const published = {
      ...dashboard(),
      config: { kind: "CLASSIC", widgets: [{ ...widget(), responsiveLayouts: null }], app: { manifest: { dependencies: null, version: null } } },
      reportSnapshots: [snapshot],
    };
    expect(
      ok("Workbook", {
        ...workbook(),
        isFavorite: null,
        createdAt: "2024-01-15T10:30:00",
        publishedDashboard: published,
        dashboardPublished: published.config,
      }),
    ).toBe(true);
  });

  it("error bodies: {error}, or message (a string or an array of strings) with statusCode", () => {
    expect(ok("ErrorBody", { statusCode: 400, message: ["first must not be greater than 50", "limit must be an integer"], error: "Bad Request" })).toBe(true);
    expect(ok("ErrorBody", { statusCode: 400, message: ["first must not be greater than 50"] })).toBe(true);
    expect(ok("ErrorBody", { statusCode: 404, message: "workbook 9 not found" })).toBe(true);
    expect(ok("ErrorBody", { statusCode: 400, message: [1, 2] })).toBe(false);
    expect(ok("ErrorBody", { statusCode: "400", message: "bad" })).toBe(false);
    expect(ok("ErrorBody", { error: { code: "unauthorized", message: "no" } })).toBe(false);
    expect(ok("ErrorBody", { statusCode: 400 })).toBe(false);
  });
});

describe("config.schema.json", () => {
  const base = { baseUrl: "https://tenant.example.com" };
  it("accepts a full config", () => {
    expect(
      configValidate({
        $schema: "./schemas/config.schema.json",
        ...base,
        token: "t",
        tokens: { readOnly: "r", noAudit: "n", creator: "c" },
        writes: true,
        timeoutMs: 1000,
        runs: 10,
        seed: 42,
        strict: false,
        fixtures: { deploymentId: 1, otherDeploymentId: "2", environmentId: "e", workbookId: 3, sharedBranch: "s" },
      }),
    ).toBe(true);
  });
  it("rejects unknown keys and bad values; baseUrl may be left to --base-url; // keys are notes", () => {
    expect(configValidate({ ...base, unknown: 1 })).toBe(false);
    expect(configValidate({ token: "t" })).toBe(true);
    expect(configValidate({ ...base, "//": "a note", fixtures: { "//workbookId": "what it is for" } })).toBe(true);
    expect(configValidate({ ...base, headers: { Authorization: "Bearer x" } })).toBe(false);
    expect(configValidate({ baseUrl: "not a url" })).toBe(false);
    expect(configValidate({ ...base, runs: 0 })).toBe(false);
    expect(configValidate({ ...base, fixtures: { workbookId: "3" } })).toBe(false);
    expect(configValidate({ ...base, tokens: { admin: "x" } })).toBe(false);
  });
});
