/**
 * The reference server's seed: the tenant it starts with, in one of its shapes. Nothing in the
 * suite reads this (rule 11 of the house): the suite discovers what it needs through the API.
 */
import { type BranchRecord, type DeploymentRecord, type Item, newItem, type Store, type User, type VersionRecord } from "./store.js";

export const TOKEN_ROLES = ["primary", "readOnly", "noAudit", "creator", "viewer"] as const;
export type TokenRoleName = (typeof TOKEN_ROLES)[number];

export interface Seeded {
  store: Store;
  tokens: Record<TokenRoleName, string>;
  /** What --write-config hands to the suite: fixtures it cannot discover on its own. */
  fixtures: Record<string, number | string>;
}

const ALL: ReadonlyArray<string> = ["AuditLogManage", "SecretsManage", "DownloadData"];

function randomToken(label: string): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return `ref_${label}_${Buffer.from(bytes).toString("base64url")}`;
}

function day(offset: number): string {
  return new Date(Date.UTC(2026, 0, 1) + offset * 86_400_000).toISOString();
}

/**
 * The knobs of the seed. The suite must pass on either shape: it may rely on none of the ids,
 * names, counts, branch names or versions of the reference (rule 7 of the house).
 */
export interface SeedShape {
  deployments: [{ id: number; name: string }, { id: number; name: string }, { id: number; name: string }];
  firstItemId: number;
  /** Workbooks of the main, second and limited deployment (the limit equals the last count). */
  workbooks: [number, number, number];
  branches: { production: string; staging: string; feature: string; personalPrefix: string };
  versions: VersionRecord[];
  current: string;
  image: string;
  /** Deployments beyond the three, with no workspace content: a tenant with very many. */
  extraDeployments?: number;
}

export const seedShapes: Record<"default" | "alternate" | "huge", SeedShape> = {
  default: {
    deployments: [
      { id: 1, name: "Analytics Production" },
      { id: 2, name: "Sandbox" },
      { id: 3, name: "Marketing Trial" },
    ],
    firstItemId: 100,
    workbooks: [24, 6, 4],
    branches: { production: "main", staging: "release", feature: "feature-revenue", personalPrefix: "dev-" },
    versions: [
      { version: "1.6.10", releaseChannel: "release" },
      { version: "1.7.18", releaseChannel: "release" },
      { version: "1.7.20", releaseChannel: "release" },
      { version: "1.8.0", releaseChannel: "latest" },
      { version: "1.8.3", releaseChannel: "latest" },
    ],
    current: "1.7.20",
    image: "cubejs/cube",
  },
  alternate: {
    deployments: [
      { id: 731, name: "EU Reporting" },
      { id: 17, name: "Staging Lab" },
      { id: 4096, name: "Free Tier Pilot" },
    ],
    firstItemId: 90_001,
    workbooks: [11, 3, 2],
    branches: { production: "trunk", staging: "stable-preview", feature: "feature-churn", personalPrefix: "sandbox/" },
    versions: [
      { version: "2.0.1", releaseChannel: "stable" },
      { version: "2.3.9", releaseChannel: "stable" },
      { version: "2.3.11", releaseChannel: "stable" },
      { version: "3.0.2", releaseChannel: "edge" },
      { version: "3.1.0", releaseChannel: "edge" },
    ],
    current: "2.3.9",
    image: "registry.example.net/platform/core",
  },
  // A huge tenant (issue 10): 10,000 workbooks in the main deployment and 1,000 deployments.
  huge: {
    deployments: [
      { id: 5001, name: "Group Analytics" },
      { id: 5002, name: "Subsidiary" },
      { id: 5003, name: "Trial Seat" },
    ],
    firstItemId: 1_000_000,
    workbooks: [10_000, 40, 3],
    branches: { production: "main", staging: "release", feature: "feature-scale", personalPrefix: "dev-" },
    versions: [
      { version: "1.7.20", releaseChannel: "release" },
      { version: "1.8.3", releaseChannel: "latest" },
    ],
    current: "1.7.20",
    image: "cubejs/cube",
    extraDeployments: 997,
  },
};

export function seed(shape: SeedShape = seedShapes.default): Seeded {
  const users: User[] = [
    { id: 1, email: "alice@example.com", firstName: "Alice", aiBiUser: true, permissions: new Set(ALL), creatorMode: false, defaultAccess: "manage" },
    { id: 2, email: "victor@example.com", firstName: "Victor", aiBiUser: true, permissions: new Set(), creatorMode: false, defaultAccess: "read" },
    { id: 3, email: "nora@example.com", firstName: null, aiBiUser: true, permissions: new Set(["SecretsManage"]), creatorMode: false, defaultAccess: "manage" },
    { id: 4, email: "carol@embed.example.com", firstName: "Carol", aiBiUser: true, permissions: new Set(), creatorMode: true, defaultAccess: "read" },
    { id: 5, email: "vera@example.com", firstName: "Vera", aiBiUser: false, permissions: new Set(), creatorMode: false, defaultAccess: "read" },
  ];
  const tokens: Record<TokenRoleName, string> = {
    primary: randomToken("admin"),
    readOnly: randomToken("viewer"),
    noAudit: randomToken("noaudit"),
    creator: randomToken("creator"),
    viewer: randomToken("below-ai-bi-user"),
  };
  const store: Store = {
    users,
    tokens: new Map([
      [tokens.primary, users[0]],
      [tokens.readOnly, users[1]],
      [tokens.noAudit, users[2]],
      [tokens.creator, users[3]],
      [tokens.viewer, users[4]],
    ]),
    deployments: [
      ...shape.deployments.map((d, i) => deployment(shape, d.id, d.name, i === 2 ? shape.workbooks[2] : null)),
      ...Array.from({ length: shape.extraDeployments ?? 0 }, (_, i) => deployment(shape, 100_000 + i, `Tenant ${i + 1}`, null)),
    ],
    items: new Map(),
    audit: [],
    nextItemId: shape.firstItemId,
    nextDashboardId: 1,
    auditFeatureEnabled: true,
  };
  const ids = seedWorkspace(store, shape);
  seedAudit(store);
  return {
    store,
    tokens,
    fixtures: {
      readOnlyFolderId: ids.readOnlyFolder,
      editableFolderId: ids.editableFolder,
      sharedWorkbookId: ids.sharedWorkbook,
      sharedUnpublishedWorkbookId: ids.sharedUnpublishedWorkbook,
      workbookLimitDeploymentId: String(shape.deployments[2].id),
      // Its state is thrown away: the run may change a deployment and write into a second one.
      mutableDeploymentId: String(shape.deployments[0].id),
      otherDeploymentId: String(shape.deployments[1].id),
    },
  };
}

function deployment(shape: SeedShape, id: number, name: string, workbookLimit: number | null): DeploymentRecord {
  const people = ["alice", "victor", "nora", "carol"];
  const b = shape.branches;
  const image = `${shape.image}:v${shape.current}`;
  const branches: BranchRecord[] = [
    { id: 1, name: b.production, parentBranch: "", lastHash: "a1b2c3d", kind: "production", isStagingEnvironmentEnabled: false },
    { id: 2, name: b.staging, parentBranch: b.production, lastHash: "b2c3d4e", kind: "shared", isStagingEnvironmentEnabled: true },
    { id: 3, name: b.feature, parentBranch: b.production, lastHash: "c3d4e5f", kind: "shared", isStagingEnvironmentEnabled: false },
    ...people.map((p, i) => ({
      id: 4 + i,
      name: `${b.personalPrefix}${p}`,
      parentBranch: b.production,
      lastHash: `d${i}e5f6a`,
      kind: "personal" as const,
      owner: `${p}@example.com`,
      isStagingEnvironmentEnabled: false,
    })),
  ];
  return {
    id,
    name,
    created_at: day(-300 + (id % 97) * 3),
    workbookLimit,
    imageRepository: shape.image,
    settings: {
      cloudProvider: "aws",
      region: "us-east-1",
      releaseChannel: shape.versions.find((v) => v.version === shape.current)!.releaseChannel,
      releaseChannelVersion: image,
      releaseChannelVersionHold: false,
      image,
      template: "standard",
      templateVariables: { CUBEJS_DB_TYPE: "postgres", CUBEJS_DB_NAME: "analytics", CUBEJS_SCHEDULED_REFRESH: "true" },
      defaultLaunchpadViewGroup: null,
      launchpadTabs: ["home", "workbooks"],
      creationMethod: "github",
      deployMode: "git",
    },
    secrets: { CUBEJS_API_SECRET: "s3cr3t-value", CUBEJS_DB_PASS: "hunter2" },
    environments: [
      { id: `env-${id}-prod`, type: "production", branch: b.production, user: "", name: "Production" },
      ...people.map((p) => ({
        id: `env-${id}-dev-${p}`,
        type: "development" as const,
        branch: `${b.personalPrefix}${p}`,
        user: `${p}@example.com`,
        name: `Development: ${p}`,
      })),
    ],
    branches,
    versions: structuredClone(shape.versions),
    envVars: [
      ["CUBEJS_DB_PASS", "hunter2"],
      ["CUBEJS_API_SECRET", "s3cr3t"],
      ["GITHUB_TOKEN", "ghp_xxx"],
      ["AWS_ACCESS_KEY_ID", "AKIA123"],
      ["GCP_CREDENTIALS_JSON", "{}"],
      ["SMTP_PASSWORD", "pw"],
      ["MY_SECRET_SALT", "salt"],
      ["DB_KEYFILE", "/k"],
      ["webhook_secret", "w"],
      ["OAUTH_CREDENTIAL", "c"],
      ["REFRESH_TOKEN_TTL", "3600"],
      ["PASSPHRASE_HINT", "h"],
      ["TZ", "UTC"],
      ["LOG_LEVEL", "info"],
      ["CUBEJS_DB_TYPE", "postgres"],
      ["CUBEJS_DB_HOST", "db.internal"],
      ["CUBEJS_DB_PORT", "5432"],
      ["REGION", "eu-west-1"],
      ["FEATURE_FLAGS", "a,b"],
      ["CACHE_TTL", "60"],
      ["MAX_ROWS", "50000"],
      ["APP_NAME", "analytics"],
      ["NODE_ENV", "production"],
      ["QUERY_TIMEOUT", "30"],
    ].map(([name, value]) => ({ name, value })),
  };
}

const RICH_WORKBOOKS = 100;

function seedWorkspace(store: Store, shape: SeedShape) {
  const alice = 1;
  const folder = (deploymentId: number, name: string, folderId: number | null) =>
    newItem(store, { deploymentId, type: "FOLDER", name, folderId, createdBy: alice, createdAt: day(-200), updatedAt: day(-200) });
  const ids = { readOnlyFolder: 0, editableFolder: 0, sharedWorkbook: 0, sharedUnpublishedWorkbook: 0 };
  const [main, second] = shape.deployments.map((d) => d.id);
  for (const [index, { id: dep }] of shape.deployments.entries()) {
    const finance = folder(dep, "Finance", null);
    const quarterly = folder(dep, "Quarterly", finance.id);
    const archive = folder(dep, "Archive", quarterly.id);
    const sales = folder(dep, "Sales", null);
    const regions = folder(dep, "Regions", sales.id);
    const emea = folder(dep, "EMEA", regions.id);
    const places =
      dep === main ? [null, finance.id, quarterly.id, archive.id, sales.id, regions.id, emea.id] : dep === second ? [null, sales.id] : [null, finance.id];
    for (let i = 0; i < shape.workbooks[index]; i++) {
      const folderId = places[i % places.length];
      // Past the first hundred, a huge tenant's workbooks are plain ones: no reports, no dashboard.
      if (i >= RICH_WORKBOOKS) {
        newItem(store, {
          deploymentId: dep,
          type: "WORKBOOK",
          name: `Bulk workbook ${i + 1}`,
          folderId,
          createdBy: alice,
          createdAt: day(-150).slice(0, 10),
          updatedAt: day(-150),
          meta: { theme: "light" },
        });
        continue;
      }
      const published = dep === main && i % 3 === 0;
      workbookWithReports(store, {
        deploymentId: dep,
        name: `${dep === main ? "Revenue" : "Pipeline"} review ${i + 1}`,
        folderId,
        published,
        allowEmbed: i === 0,
        createdBy: alice,
        when: day(-150 + i),
        reports: 1 + (i % 3),
      });
    }
    if (dep === main) {
      // Victor (the read-only token) may read Finance but edit nothing there; Sales is his to edit.
      sales.grants.set(2, "edit");
      ids.readOnlyFolder = finance.id;
      ids.editableFolder = sales.id;
      const shared = workbookWithReports(store, {
        deploymentId: dep,
        name: "Shared KPIs",
        folderId: null,
        published: true,
        allowEmbed: true,
        createdBy: alice,
        when: day(-20),
        reports: 2,
      });
      shared.sharedWorkspace = true;
      ids.sharedWorkbook = shared.id;
      const draftOnly = workbookWithReports(store, {
        deploymentId: dep,
        name: "Shared drafts",
        folderId: null,
        published: false,
        allowEmbed: false,
        createdBy: alice,
        when: day(-19),
        reports: 1,
      });
      draftOnly.sharedWorkspace = true;
      ids.sharedUnpublishedWorkbook = draftOnly.id;
    }
  }
  return ids;
}

const KINDS = ["vega", "table", "kpi", "html", "map"];

function workbookWithReports(
  store: Store,
  o: { deploymentId: number; name: string; folderId: number | null; published: boolean; allowEmbed: boolean; createdBy: number; when: string; reports: number },
): Item {
  const wb = newItem(store, {
    deploymentId: o.deploymentId,
    type: "WORKBOOK",
    name: o.name,
    folderId: o.folderId,
    createdBy: o.createdBy,
    createdAt: o.when.slice(0, 10),
    updatedAt: o.when,
    meta: { theme: "light", owner: { team: "analytics" } },
    calculatedFields: { margin: "revenue - cost" },
    viewHistory: [1, 2],
    policies: [{ principal: "group:finance", action: "DownloadData" }],
  });
  const reports = Array.from({ length: o.reports }, (_, i) =>
    newItem(store, {
      deploymentId: o.deploymentId,
      type: "REPORT",
      name: `${o.name} / chart ${i + 1}`,
      folderId: o.folderId,
      createdBy: o.createdBy,
      createdAt: o.when,
      updatedAt: o.when,
      workbookId: wb.id,
      report: { kind: KINDS[(wb.id + i) % KINDS.length], sqlQuery: `select * from orders limit ${i + 1}`, title: `Chart ${i + 1}` },
    }),
  );
  const config = dashboardConfig(
    o.name,
    reports.map((r) => r.id),
  );
  wb.dashboardDraft = config;
  if (o.published) wb.publishedDashboard = publishDashboard(store, wb, reports, config, o.allowEmbed);
  return wb;
}

export function dashboardConfig(title: string, reportIds: number[]): any {
  return {
    kind: "CLASSIC",
    title,
    description: null,
    widgets: [
      { id: "w-title", type: "TEXT", position: { x: 0, y: 0, w: 12, h: 1 }, config: { text: title }, style: null },
      ...reportIds.map((reportId, i) => ({
        id: `w-chart-${i}`,
        type: "CHART",
        position: { x: (i % 2) * 6, y: 1 + Math.floor(i / 2) * 4, w: 6, h: 4 },
        config: { reportId },
        style: null,
      })),
      {
        id: "w-tabs",
        type: "CONTAINER",
        position: { x: 0, y: 20, w: 12, h: 6 },
        config: { layout: "tabs", tabs: [{ title: "More", widgetIds: [] }] },
        responsiveLayouts: { lg: null, md: { x: 0, y: 20, w: 10, h: 6 }, sm: null, xs: null, xxs: null },
      },
    ],
    layout: {
      breakpoints: { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 },
      cols: { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 },
      containerPadding: [10, 10],
      margin: [10, 10],
      rowHeight: 30,
    },
    settings: {},
    theme: null,
    app: null,
  };
}

export function publishDashboard(store: Store, wb: Item, reports: Item[], config: any, allowEmbed: boolean): any {
  const id = store.nextDashboardId++;
  return {
    id,
    publicId: `pub-${wb.deploymentId}-${id}-${wb.id}`,
    deploymentId: wb.deploymentId,
    workbookId: wb.id,
    status: "published",
    allowEmbed,
    config: structuredClone(config),
    versionNumber: 1,
    versionId: id * 10,
    createdBy: wb.createdBy,
    title: config.title ?? null,
    description: null,
    fromSharedWorkspace: false,
    restrictDataDownload: false,
    useBoardDashboards: null,
    reportSnapshots: reports.map((r, i) => ({
      id: id * 100 + i,
      reportId: r.id,
      versionNumber: 1,
      kind: r.report?.kind ?? null,
      name: r.name,
      title: r.report?.title ?? null,
      description: null,
      sqlQuery: r.report?.sqlQuery ?? null,
      pythonCode: null,
      spec: null,
      meta: null,
      isSourceReport: true,
      fillMissingRows: null,
      periodComparisons: null,
      preferences: null,
    })),
  };
}

const EVENTS = ["Logged in", "Logged out", "Workbook viewed", "Report exported", "API key created"];

function seedAudit(store: Store) {
  for (let i = 0; i < 60; i++) {
    const user = store.users[i % store.users.length];
    store.audit.push({
      timestamp: day(-60 + i).replace("T00", `T${String(8 + (i % 10)).padStart(2, "0")}`),
      userEmail: user.email,
      eventName: EVENTS[i % EVENTS.length],
      deploymentName: store.deployments[i % 2].name,
      ipAddress: `203.0.113.${i}`,
      details: i % 7 === 0 ? "password [HIDDEN], via SSO" : `session ${i}, browser "Firefox"`,
    });
  }
}
