// Seed of a realistic tenant: users, keys, deployments, branches, env vars, versions, audit events.
import { randomBytes } from "node:crypto";
import { Store } from "./store.js";
import type { Branch, Deployment, DmFile, Role } from "./store.js";
import { seedWorkspace } from "./seed-workspace.js";

export interface Seeded {
  store: Store;
  tokens: Record<string, string>;
  adminToken: string;
}

function key(prefix: string): string {
  return `${prefix}_${randomBytes(18).toString("hex")}`;
}

const ORDERS_YML =
  "cubes:\n  - name: orders\n    sql_table: public.orders\n    measures:\n      - name: count\n        type: count\n      - name: revenue\n        sql: amount\n        type: sum\n    dimensions:\n      - name: status\n        sql: status\n        type: string\n      - name: created_at\n        sql: created_at\n        type: time\n";
const CUSTOMERS_YML =
  "cubes:\n  - name: customers\n    sql_table: public.customers\n    measures:\n      - name: count\n        type: count\n    dimensions:\n      - name: country\n        sql: country\n        type: string\n";
const VIEW_YML = 'views:\n  - name: revenue\n    cubes:\n      - join_path: orders\n        includes: "*"\n';
const CUBE_JS = "module.exports = {\n  contextToAppId: ({ securityContext }) => `app_${securityContext.tenant_id}`,\n};\n";
const BROKEN_YML = "cubes:\n  - name: refunds\n\tsql_table: public.refunds\n";

function files(entries: Record<string, string>, at: string): Map<string, DmFile> {
  return new Map(Object.entries(entries).map(([k, v]) => [k, { content: v, updatedAt: at }]));
}

export function seed(): Seeded {
  const s = new Store();
  const tokens: Record<string, string> = {};
  s.versions = [
    { version: "1.7.20", channel: "latest" },
    { version: "1.7.18", channel: "latest" },
    { version: "1.7.12", channel: "latest" },
    { version: "1.6.12", channel: "release" },
    { version: "1.6.9", channel: "release" },
    { version: "1.5.3", channel: "release" },
  ];
  const mkUser = (email: string, firstName: string, lastName: string, role: Role, permissions: string[], embed = false): number => {
    const id = s.ids.user.take();
    s.users.set(id, {
      id,
      email,
      firstName,
      lastName,
      role,
      permissions,
      status: "active",
      createdAt: `2024-0${1 + (id % 8)}-1${id % 10}T09:${10 + (id % 40)}:00.000Z`,
      embed,
    });
    return id;
  };
  const admin = mkUser("ada.admin@acme-analytics.test", "Ada", "Admin", "ADMIN", ["AuditLogManage", "SecretsManage", "DownloadData"]);
  const editor = mkUser("ed.editor@acme-analytics.test", "Ed", "Editor", "AI_BI_USER", ["DownloadData"]);
  const dev = mkUser("dana.dev@acme-analytics.test", "Dana", "Developer", "DEVELOPER", ["DownloadData"]);
  const reader = mkUser("rita.reader@acme-analytics.test", "Rita", "Reader", "VIEWER", []);
  const viewer = mkUser("victor.viewer@acme-analytics.test", "Victor", "Viewer", "VIEWER", []);
  const scoped = mkUser("sam.scoped@acme-analytics.test", "Sam", "Scoped", "ADMIN", ["AuditLogManage"]);
  const embedUser = mkUser("creator@northwind.embed.test", "Nora", "Northwind", "AI_BI_USER", [], true);
  const addKey = (
    name: string,
    userId: number,
    extra: Partial<{ kind: "api-key" | "embed-session"; creatorMode: boolean; deploymentScope: number[] }> = {},
  ): string => {
    const t = key(extra.kind === "embed-session" ? "es" : "ak");
    s.keys.set(t, { token: t, userId, kind: extra.kind ?? "api-key", creatorMode: extra.creatorMode, deploymentScope: extra.deploymentScope });
    tokens[name] = t;
    return t;
  };

  const mkDep = (name: string, createdAt: string, channel: string, version: string, pastVersions: string[], vars: Record<string, string>): Deployment => {
    const id = s.ids.deployment.take();
    const d: Deployment = {
      id,
      name,
      createdAt,
      cloudProvider: "hosted",
      region: "us-east-1",
      releaseChannel: channel,
      version,
      releaseChannelVersionHold: false,
      template: "postgres",
      templateVariables: { CUBEJS_DB_TYPE: "postgres", CUBEJS_DB_PASS: "hunter2" },
      launchpadTabs: [{ id: "home", title: "Home" }],
      creationMethod: "github",
      deployMode: "git",
      creationStep: 5,
      envVars: new Map(Object.entries(vars)),
      pastVersions,
    };
    s.deployments.set(id, d);
    return d;
  };
  const depA = mkDep("Acme Analytics Production", "2024-03-11T08:15:00.000Z", "release", "1.6.12", ["1.6.9", "1.7.18"], {
    CUBEJS_DB_TYPE: "postgres",
    CUBEJS_DB_HOST: "db.acme.internal",
    CUBEJS_DB_NAME: "analytics",
    CUBEJS_DB_USER: "cube",
    CUBEJS_DB_PASS: "pg-s3cr3t-value",
    CUBEJS_API_SECRET: "api-secret-9f8e7d",
    GITHUB_TOKEN: "ghp_exampletoken123",
    AWS_ACCESS_KEY_ID: "AKIAEXAMPLE",
    GCP_CREDENTIALS: '{"type":"service_account"}',
    LOG_LEVEL: "info",
    CUBEJS_SCHEDULED_REFRESH: "true",
  });
  depA.defaultLaunchpadViewGroup = "finance";
  const depB = mkDep("Acme Sandbox", "2024-06-02T14:40:00.000Z", "latest", "1.7.20", ["1.7.12"], {
    CUBEJS_DB_TYPE: "bigquery",
    CUBEJS_DB_BQ_PROJECT_ID: "acme-sandbox",
    CUBEJS_DB_BQ_KEY_FILE: "/secrets/bq.json",
    LOG_LEVEL: "debug",
  });
  const depC = mkDep("Acme Empty Workspace", "2025-01-20T11:05:00.000Z", "latest", "1.7.20", [], { CUBEJS_DB_TYPE: "duckdb", CUBEJS_DB_PASSWORD: "duck" });
  depC.creationStep = 2;
  depC.creationMethod = "upload";
  depC.deployMode = "cli";

  addKey("admin", admin);
  addKey("editor", editor);
  addKey("developer", dev);
  addKey("readOnly", reader);
  addKey("viewer", viewer);
  addKey("scopedToSandbox", scoped, { deploymentScope: [depB.id] });
  addKey("creatorEmbed", embedUser, { kind: "embed-session", creatorMode: true });
  addKey("plainEmbed", embedUser, { kind: "embed-session", creatorMode: false });

  const mkBranch = (
    d: Deployment,
    name: string,
    kind: Branch["kind"],
    parent: string | undefined,
    staging: boolean,
    f: Map<string, DmFile>,
    ownerUserId?: number,
  ): Branch => {
    const b: Branch = {
      id: s.ids.branch.take(),
      deploymentId: d.id,
      name,
      kind,
      parentBranch: parent,
      ownerUserId,
      staging,
      files: f,
      lastHash: randomBytes(20).toString("hex"),
      createdAt: d.createdAt,
      buildStatus: "built",
    };
    s.branches.push(b);
    return b;
  };
  const prodFiles = {
    "model/cubes/orders.yml": ORDERS_YML,
    "model/cubes/customers.yml": CUSTOMERS_YML,
    "model/views/revenue.yml": VIEW_YML,
    "cube.js": CUBE_JS,
  };
  mkBranch(depA, "master", "production", undefined, false, files(prodFiles, "2024-09-01T10:00:00.000Z"));
  mkBranch(depA, "staging-q3", "shared", "master", true, files(prodFiles, "2024-09-03T10:00:00.000Z"));
  const fr = mkBranch(depA, "feature-revenue", "shared", "master", false, files(prodFiles, "2024-09-05T10:00:00.000Z"));
  fr.buildStatus = "building";
  mkBranch(
    depA,
    "dev-dana",
    "personal",
    "feature-revenue",
    false,
    files({ ...prodFiles, "model/cubes/refunds.yml": BROKEN_YML }, "2024-09-07T10:00:00.000Z"),
    dev,
  );
  mkBranch(depB, "main", "production", undefined, false, files({ "model/cubes/orders.yml": ORDERS_YML }, "2024-06-02T15:00:00.000Z"));
  const rc = mkBranch(depB, "release-candidate", "shared", "main", false, files({ "model/cubes/orders.yml": ORDERS_YML }, "2024-06-03T15:00:00.000Z"));
  rc.buildStatus = "failed";
  mkBranch(depB, "dev-ada", "personal", "main", false, files({ "model/cubes/orders.yml": ORDERS_YML }, "2024-06-04T15:00:00.000Z"), admin);
  mkBranch(depC, "main", "production", undefined, false, new Map());
  s.devSessions.set(s.devKey(dev, depA.id), { branchName: "dev-dana", startedAt: "2024-09-07T10:00:00.000Z" });
  s.devSessions.set(s.devKey(admin, depB.id), { branchName: "dev-ada", startedAt: "2024-06-04T15:00:00.000Z" });

  s.embedTenants = [
    { id: "northwind", name: "Northwind Traders" },
    { id: "contoso", name: "Contoso Ltd" },
  ];
  s.attributes.push(
    {
      id: s.ids.attr.take(),
      name: "region",
      type: "string",
      createdAt: "2024-04-01T00:00:00.000Z",
      values: new Map([
        [editor, "EMEA"],
        [reader, "APAC"],
      ]),
    },
    { id: s.ids.attr.take(), name: "max_discount", type: "number", createdAt: "2024-04-02T00:00:00.000Z", values: new Map([[editor, 15]]) },
    { id: s.ids.attr.take(), name: "is_partner", type: "boolean", createdAt: "2024-04-03T00:00:00.000Z", values: new Map([[viewer, true]]) },
    {
      id: s.ids.attr.take(),
      name: "allowed_countries",
      type: "string_array",
      createdAt: "2024-04-04T00:00:00.000Z",
      values: new Map([[editor, ["DE", "FR"]]]),
    },
  );
  const ev = (at: string, email: string, name: string, dep: number | undefined, attrs: Record<string, string>): void => {
    s.audit.push({
      id: s.ids.audit.take(),
      at,
      userEmail: email,
      eventName: name,
      deploymentId: dep,
      ip: "203.0.113." + (s.audit.length + 10),
      attributes: attrs,
    });
  };
  ev("2025-01-06T08:01:12.000Z", "ada.admin@acme-analytics.test", "Logged in", undefined, { method: "password" });
  ev("2025-01-06T09:14:40.000Z", "ed.editor@acme-analytics.test", "Logged in", undefined, { method: "sso", provider: "okta" });
  ev("2025-01-07T10:22:05.000Z", "ada.admin@acme-analytics.test", "Deployment updated", depA.id, { field: "releaseChannel", value: "release" });
  ev("2025-01-08T16:45:00.000Z", "ada.admin@acme-analytics.test", "Environment variables changed", depA.id, {
    names: "CUBEJS_DB_PASS",
    CUBEJS_DB_PASS: "pg-s3cr3t-value",
  });
  ev("2025-01-09T12:00:30.000Z", "dana.dev@acme-analytics.test", "Dev mode started", depA.id, { branch: "dev-dana" });
  ev("2025-01-10T07:30:00.000Z", "rita.reader@acme-analytics.test", "Login failed", undefined, { reason: 'bad password, "quoted", with comma' });

  const t0 = Date.parse("2025-01-08T03:00:00.000Z");
  s.dbtJobs.push(
    { id: s.ids.dbt.take(), deploymentId: depA.id, branchName: "master", trigger: "schedule", createdMs: t0, willFail: false },
    {
      id: s.ids.dbt.take(),
      deploymentId: depA.id,
      branchName: "feature-revenue",
      ref: "broken",
      trigger: "manual",
      createdMs: t0 + 3600000,
      willFail: true,
      userId: dev,
    },
    {
      id: s.ids.dbt.take(),
      deploymentId: depA.id,
      branchName: "master",
      trigger: "api",
      createdMs: t0 + 7200000,
      cancelledMs: t0 + 7200500,
      willFail: false,
      userId: admin,
    },
  );
  seedWorkspace(s, { depA: depA.id, depB: depB.id, admin, editor, dev, reader });
  depB.workbookLimit = s.itemsOf(depB.id).filter((i) => i.type === "WORKBOOK").length;
  return { store: s, tokens, adminToken: tokens["admin"]! };
}
