import { randomBytes } from "node:crypto";
import type { ApiKey, AuditEvent, Branch, Dashboard, Deployment, EnvVar, Group, Item, Job, User, Version } from "./types.js";
import { iso, seededUuid, sha } from "./util.js";
import { seedWorkspace } from "./seed-workspace.js";

export const IMAGE_REPO = "registry.analytics.example/platform/server";

export class Store {
  jwtSecret = randomBytes(32).toString("hex");
  users = new Map<number, User>();
  groups = new Map<number, Group>();
  keys = new Map<string, ApiKey>();
  deployments = new Map<number, Deployment>();
  branches: Branch[] = [];
  versions: Version[] = [];
  envVars = new Map<number, EnvVar[]>();
  items = new Map<number, Item>();
  dashboards = new Map<number, Dashboard>();
  favorites = new Set<string>(); // `${userId}:${itemId}`
  viewHistory = new Map<string, string>(); // `${userId}:${itemId}` -> iso
  audit: AuditEvent[] = [];
  /** Generic collections for the E14 resources (keyed by collection name). */
  coll = new Map<string, Map<string, Job>>();
  files = new Map<string, Map<string, string>>(); // `${deploymentId}:${branch}` -> path -> content
  tenantSettings: Record<string, unknown> = {
    name: "Acme Analytics",
    plan: "enterprise",
    auditLogEnabled: true,
    defaultTimezone: "UTC",
    allowedEmailDomains: ["acme.example"],
    sessionTimeoutMinutes: 720,
  };
  appConfig: Record<string, unknown> = {
    appTheme: { primaryColor: "#3355ff", mode: "light" },
    applyThemeGlobally: false,
    creatorMode: false,
    embedding: { enabled: true, signedEmbedding: true },
    sheetsUi: { enabled: true },
    timezoneSettings: { defaultTimezone: "UTC", allowUserOverride: true },
  };
  /** Window (ms) between the create/update decision and its application in upsert-by-slug. */
  upsertRaceMs = 25;
  private seq = 1000;
  nextId(): number {
    return ++this.seq;
  }

  collection(name: string): Map<string, Job> {
    let c = this.coll.get(name);
    if (!c) {
      c = new Map();
      this.coll.set(name, c);
    }
    return c;
  }

  constructor() {
    this.seedPeople();
    this.seedDeployments();
    seedWorkspace(this);
    this.seedEmbed();
    this.seedAudit();
  }

  private seedPeople(): void {
    const at = iso(Date.UTC(2026, 0, 5, 9, 0, 0, 123));
    const groups: Group[] = [
      { id: 1, name: "Analysts", description: "Business analysts", createdAt: at },
      { id: 2, name: "Finance", description: "Finance team", createdAt: at },
    ];
    for (const g of groups) this.groups.set(g.id, g);
    const people: Array<[number, string, string, User["role"], number[]]> = [
      [1, "ada@acme.example", "Ada", "admin", []],
      [2, "dev@acme.example", "Devon", "developer", [1]],
      [3, "alice@acme.example", "Alice", "ai-bi-user", [1]],
      [4, "victor@acme.example", "Victor", "viewer", []],
      [5, "eve@embed.acme.example", "Eve", "ai-bi-user", []],
      [6, "nora@acme.example", "Nora", "admin", [2]],
      [7, "former@acme.example", "Fred", "viewer", []],
    ];
    for (const [id, email, firstName, role, groupIds] of people) {
      this.users.set(id, {
        id,
        email,
        firstName,
        lastName: "Example",
        picture: id % 2 ? `https://avatars.example/${id}.png` : null,
        role,
        status: id === 7 ? "inactive" : "active",
        groupIds,
        createdAt: at,
      });
    }
    const key = (label: string): string => `ak_${label.replace(/[^a-z]/g, "")}_${randomBytes(12).toString("hex")}`;
    const mk = (label: string, userId: number, extra: Partial<ApiKey> = {}): void => {
      const k: ApiKey = {
        key: key(label),
        userId,
        label,
        auditFeature: true,
        permissions: [],
        creatorMode: false,
        embedTenantId: null,
        ...extra,
      };
      this.keys.set(k.key, k);
    };
    mk("admin", 1, { permissions: ["AuditLogManage", "SecretsManage", "DownloadData"] });
    mk("developer", 2, { permissions: ["SecretsManage", "DownloadData"] });
    mk("ai-bi-user", 3, { permissions: ["DownloadData"] });
    mk("viewer", 4);
    mk("creator-embed", 5, { creatorMode: true, embedTenantId: seededUuid("tenant-globex") });
    mk("no-audit", 6, { auditFeature: false, permissions: ["AuditLogManage", "SecretsManage"] });
  }

  private seedDeployments(): void {
    const v = (channel: string, version: string): Version => ({
      releaseChannel: channel,
      version,
      releaseChannelVersion: `${IMAGE_REPO}:v${version}`,
    });
    this.versions = [v("stable", "1.6.9"), v("stable", "1.6.12"), v("regular", "1.7.18"), v("regular", "1.7.20")];
    const base = {
      cloudProvider: "aws",
      template: "default",
      defaultLaunchpadViewGroup: null,
      launchpadTabs: [],
      creationMethod: "github",
      deployMode: "git",
      creationStep: 4,
      releaseChannelVersionHold: false,
      devModeBranches: [] as string[],
      githubRepository: "acme/analytics-model",
    };
    const d1: Deployment = {
      ...base,
      id: 101,
      name: "Acme Production Analytics",
      created_at: iso(Date.UTC(2025, 10, 3, 14, 22, 1, 507)),
      region: "aws-us-east-1",
      releaseChannel: "regular",
      releaseChannelVersion: `${IMAGE_REPO}:v1.7.18`,
      templateVariables: { DB_TYPE: "postgres", TIMEZONE: "UTC" },
      versionHistory: ["1.7.18", "1.6.9"],
      workbookLimit: 500,
      devModeBranches: ["dev-ada", "dev-alice"],
      settings: { sqlApiEnabled: true, cacheRefreshMinutes: 60, aiEnabled: true, timezone: "UTC" },
      secrets: { DB_PASS: "pg-secret", JWT_SECRET: "jwt-secret" },
    };
    const d2: Deployment = {
      ...base,
      id: 102,
      name: "Sandbox",
      created_at: iso(Date.UTC(2026, 1, 11, 8, 5, 44, 31)),
      region: "gcp-europe-west1",
      cloudProvider: "gcp",
      releaseChannel: "stable",
      releaseChannelVersion: `${IMAGE_REPO}:v1.6.12`,
      creationMethod: "upload",
      deployMode: "cli",
      templateVariables: { DB_TYPE: "bigquery" },
      versionHistory: ["1.6.12"],
      workbookLimit: 3,
      githubRepository: null,
      settings: { sqlApiEnabled: false, cacheRefreshMinutes: 15, aiEnabled: false, timezone: "Europe/Berlin" },
      secrets: { BQ_CREDENTIALS: "{...}" },
    };
    this.deployments.set(d1.id, d1);
    this.deployments.set(d2.id, d2);
    const at = iso(Date.UTC(2026, 10, 20, 10, 0, 0, 250));
    const br = (
      id: number,
      deploymentId: number,
      name: string,
      parentBranch: string,
      kind: Branch["kind"],
      ownerUserId: number | null,
      staging = false,
    ): Branch => ({
      id,
      deploymentId,
      name,
      parentBranch,
      kind,
      ownerUserId,
      isStagingEnvironmentEnabled: staging,
      lastHash: sha(`${deploymentId}/${name}`),
      status: "deployed",
      updatedAt: at,
    });
    this.branches = [
      br(1, 101, "main", "", "production", null),
      br(2, 101, "release-2026", "main", "shared", null, true),
      br(3, 101, "feature-forecast", "main", "shared", null),
      br(4, 101, "dev-ada", "main", "personal", 1),
      br(5, 101, "dev-alice", "feature-forecast", "personal", 3),
      br(6, 102, "main", "", "production", null),
      br(7, 102, "experiments", "main", "shared", null),
      br(8, 102, "dev-devon", "main", "personal", 2),
    ];
    this.envVars.set(
      101,
      [
        { name: "DB_HOST", value: "db.internal.acme.example" },
        { name: "DB_PASS", value: "pg-secret" },
        { name: "DB_USER", value: "analytics" },
        { name: "API_SECRET", value: "s3cr3t" },
        { name: "GITHUB_TOKEN", value: "ghp_example" },
        { name: "STRIPE_KEY", value: "sk_live_x" },
        { name: "GCP_CREDENTIALS", value: '{"type":"service_account"}' },
        { name: "LOG_LEVEL", value: "info" },
        { name: "CACHE_TTL", value: "3600" },
        { name: "TIMEZONE", value: "UTC" },
        { name: "FEATURE_FLAGS", value: "ai,sheets" },
        { name: "REGION", value: "us-east-1" },
        { name: "db_password", value: "lower" },
      ].sort((a, b) => a.name.localeCompare(b.name)),
    );
    this.envVars.set(102, [
      { name: "BQ_PROJECT", value: "sandbox-1" },
      { name: "BQ_KEY", value: "xyz" },
    ]);
    const files = new Map<string, string>([
      ["model/cubes/orders.yml", "cubes:\n  - name: orders\n    sql_table: public.orders\n"],
      ["model/cubes/customers.yml", "cubes:\n  - name: customers\n    sql_table: public.customers\n"],
      ["model/views/revenue.yml", "views:\n  - name: revenue\n"],
      ["cube.js", "module.exports = {};\n"],
    ]);
    for (const b of this.branches) this.files.set(`${b.deploymentId}:${b.name}`, new Map(files));
  }

  private seedEmbed(): void {
    const at = iso(Date.UTC(2026, 5, 1, 12, 0, 0, 42));
    for (const name of ["Globex", "Initech"]) {
      const id = seededUuid(`tenant-${name.toLowerCase()}`);
      this.collection("embed-tenants").set(id, { id, name, externalId: name.toLowerCase(), creatorMode: name === "Globex", createdAt: at });
      const uid = seededUuid(`tenant-user-${name}`);
      this.collection("embed-users").set(uid, {
        id: uid,
        tenantId: id,
        externalId: `${name.toLowerCase()}-u1`,
        email: `u1@${name.toLowerCase()}.example`,
        createdAt: at,
      });
      const gid = seededUuid(`tenant-group-${name}`);
      this.collection("embed-groups").set(gid, { id: gid, tenantId: id, name: `${name} analysts`, memberIds: [uid], createdAt: at });
    }
  }

  private seedAudit(): void {
    const names = ["Logged in", "Logged out", "Workbook created", "API key created", "Deployment updated", "User invited", "Env vars updated", "Logged in"];
    const users = [...this.users.values()];
    for (let i = 0; i < 36; i++) {
      const u = users[i % users.length]!;
      const eventName = names[i % names.length]!;
      this.audit.push({
        id: seededUuid(`audit-${i}`),
        timestamp: iso(Date.UTC(2026, 10, 1 + (i % 26), 8 + (i % 9), i, 12, 340)),
        eventName,
        userEmail: u.email,
        userId: u.id,
        ipAddress: `10.0.${i % 4}.${10 + i}`,
        data: { eventName, userAgent: i % 3 ? "Mozilla/5.0" : "curl/8.4", detail: i % 5 === 0 ? 'via SSO, "okta"' : `session ${i}` },
      });
    }
  }

  addAudit(eventName: string, userId: number | null, data: Record<string, unknown>): void {
    const u = userId ? this.users.get(userId) : undefined;
    this.audit.push({
      id: seededUuid(`audit-${this.audit.length}-${Date.now()}`),
      timestamp: iso(),
      eventName,
      userEmail: u?.email ?? null,
      userId,
      ipAddress: "127.0.0.1",
      data,
    });
  }
}
