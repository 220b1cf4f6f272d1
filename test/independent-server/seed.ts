// Fresh seeded state for every server start.
import { randomBytes } from "node:crypto";
import type { AuditRow, Branch, Deployment, Item, ItemType, ReportBody, State, VersionEntry } from "./store.js";
import { nextItemId } from "./store.js";

const REGISTRY = "registry.platform.example/engine/server";

function versions(): VersionEntry[] {
  const mk = (version: string, releaseChannel: string, isLatestInChannel: boolean): VersionEntry => ({
    releaseChannelVersion: `${REGISTRY}:v${version}-${releaseChannel}`,
    version,
    releaseChannel,
    isLatestInChannel,
  });
  return [mk("1.8.3", "edge", true), mk("1.8.1", "edge", false), mk("1.7.20", "stable", true), mk("1.7.18", "stable", false), mk("1.6.9", "lts", true)];
}

function hash(): string {
  return randomBytes(20).toString("hex");
}

function branches(prefix: number, owner: string): Branch[] {
  const day = (n: number) => new Date(Date.UTC(2026, 8, n, 9, 0, 0));
  return [
    { id: prefix + 3, name: "main", parentBranch: "", lastHash: hash(), staging: false, kind: "production", owner, createdAt: day(1) },
    { id: prefix + 11, name: "release-candidate", parentBranch: "main", lastHash: hash(), staging: true, kind: "shared", owner, createdAt: day(3) },
    { id: prefix + 17, name: "feature-forecast", parentBranch: "main", lastHash: hash(), staging: false, kind: "shared", owner, createdAt: day(5) },
    { id: prefix + 29, name: "dev-admin", parentBranch: "main", lastHash: hash(), staging: false, kind: "personal", owner, createdAt: day(7) },
  ];
}

export function deployment(id: string, name: string, created: Date, current: string, channel: string, bprefix: number): Deployment {
  const env = new Map<string, string>();
  const vars: [string, string][] = [
    ["DB_HOST", "warehouse.internal"],
    ["DB_PORT", "5432"],
    ["DB_USER", "analytics"],
    ["DB_PASSWORD", "s3cr3t-pw"],
    ["API_SECRET", "abc123"],
    ["CACHE_TTL", "300"],
    ["SERVICE_TOKEN", "tok-998"],
    ["SIGNING_KEY", "k-42"],
    ["GCP_CREDENTIALS", '{"type":"service_account"}'],
    ["LOG_LEVEL", "info"],
    ["TIMEZONE", "UTC"],
    ["FEATURE_FLAGS", "a,b,c"],
    ["WAREHOUSE", "primary"],
    ["passphrase_hint", "blue"],
  ];
  for (const [k, v] of vars) env.set(k, v);
  return {
    id,
    name,
    createdAt: created,
    cloudProvider: "aws",
    region: "eu-central-1",
    releaseChannel: channel,
    releaseChannelVersion: current,
    releaseChannelVersionHold: false,
    template: "default",
    templateVariables: { warehouseSize: "small", replicas: 2 },
    defaultLaunchpadViewGroup: null,
    launchpadTabs: [],
    creationMethod: "github",
    deployMode: "git",
    secrets: { GIT_DEPLOY_KEY: "ssh-ed25519 AAAA" },
    envVars: env,
    branches: branches(bprefix, "admin@example.test"),
    versions: versions(),
    workbookLimit: 40,
  };
}

interface Builder {
  st: State;
  depId: number;
  day: number;
}

function add(b: Builder, type: ItemType, name: string, folderId: number | null, extra: Partial<Item> = {}): Item {
  const t = new Date(Date.UTC(2026, 9, 1 + (b.day++ % 28), 8 + (b.day % 9), 15, 0));
  const it: Item = {
    id: nextItemId(b.st),
    deploymentId: b.depId,
    name,
    type,
    meta: {},
    calculatedFields: {},
    createdAt: t,
    updatedAt: new Date(t.getTime() + 3_600_000),
    createdBy: 501,
    userId: 501,
    folderId,
    slug: null,
    isFavorite: null,
    workbookId: null,
    dashboardId: null,
    ...extra,
  };
  b.st.items.set(it.id, it);
  return it;
}

function report(b: Builder, name: string, folderId: number | null, workbookId: number | null, kind: ReportBody["kind"]): Item {
  return add(b, "REPORT", name, folderId, {
    workbookId,
    report: {
      kind,
      title: name,
      description: null,
      sqlQuery: `SELECT * FROM ${name.toLowerCase().replace(/\W+/g, "_")}`,
      pythonCode: null,
      spec: kind === "vega" ? { mark: "bar" } : null,
    },
  });
}

export function snapshotOf(st: State, r: Item, versionNumber: number): Record<string, unknown> {
  st.seq.snapshot += 5;
  const body = r.report;
  return {
    id: st.seq.snapshot,
    reportId: r.id,
    versionNumber,
    kind: body?.kind ?? null,
    name: r.name,
    title: body?.title ?? null,
    description: body?.description ?? null,
    sqlQuery: body?.sqlQuery ?? null,
    pythonCode: body?.pythonCode ?? null,
    spec: body?.spec ?? null,
    meta: null,
    isSourceReport: true,
    fillMissingRows: null,
    periodComparisons: null,
    preferences: { columnFormats: { total: { type: "currency", decimalPlaces: 2 } } },
  };
}

export function configFor(reports: Item[], title: string): Record<string, unknown> {
  const widgets: Record<string, unknown>[] = reports.map((r, i) => ({
    id: `w-${r.id}`,
    type: "CHART",
    position: { x: (i % 2) * 6, y: Math.floor(i / 2) * 4, w: 6, h: 4 },
    config: { reportId: r.id },
    style: null,
  }));
  widgets.push({ id: "w-note", type: "TEXT", position: { x: 0, y: 40, w: 12, h: 2 }, config: { text: `About ${title}` } });
  return { kind: "CLASSIC", title, description: null, widgets, layout: { rowHeight: 30, cols: { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 } } };
}

function workbook(b: Builder, name: string, folderId: number | null, reportNames: string[], publish: boolean, allowEmbed = false): Item {
  const wb = add(b, "WORKBOOK", name, folderId);
  const reps = reportNames.map((n, i) => report(b, n, folderId, wb.id, (["vega", "table", "kpi"] as const)[i % 3]));
  const cfg = configFor(reps, name);
  wb.meta = { description: `${name} workbook`, dashboardDraft: cfg };
  if (publish) {
    const st = b.st;
    st.seq.dashboard += 3;
    st.seq.version += 11;
    st.dashboards.set(st.seq.dashboard, {
      id: st.seq.dashboard,
      publicId: `pd_${randomBytes(6).toString("hex")}`,
      deploymentId: b.depId,
      workbookId: wb.id,
      status: "published",
      allowEmbed,
      config: structuredClone(cfg),
      versionNumber: 2,
      versionId: st.seq.version,
      reportSnapshots: reps.map((r) => snapshotOf(st, r, 2)),
      createdBy: 501,
      title: name,
      description: null,
    });
    wb.dashboardId = st.seq.dashboard;
  }
  return wb;
}

function seedWorkspace(st: State): void {
  const b: Builder = { st, depId: 4021, day: 0 };
  const finance = add(b, "FOLDER", "Finance", null);
  const quarterly = add(b, "FOLDER", "Quarterly", finance.id);
  const archive = add(b, "FOLDER", "Archive 2025", quarterly.id);
  const marketing = add(b, "FOLDER", "Marketing", null);
  const campaigns = add(b, "FOLDER", "Campaigns", marketing.id);
  const ops = add(b, "FOLDER", "Operations", null);
  add(b, "FOLDER", "Empty folder", null);
  const rev = workbook(b, "Revenue Overview", finance.id, ["Revenue by Month", "Top Customers"], true, true);
  rev.isFavorite = true;
  workbook(b, "Q3 Close", quarterly.id, ["Ledger Balance", "Accruals"], true);
  workbook(b, "FY2025 Recap", archive.id, ["Annual Totals"], false);
  workbook(b, "Campaign Performance", campaigns.id, ["Clicks by Channel", "Spend vs Budget", "Conversion KPI"], true);
  workbook(b, "Funnel", marketing.id, ["Signup Funnel"], false);
  workbook(b, "Inventory", ops.id, ["Stock Levels", "Reorder Alerts"], true);
  workbook(b, "Executive Summary", null, ["Headline KPIs", "Regional Split"], true);
  workbook(b, "Scratchpad", null, [], false);
  workbook(b, "Support Tickets", ops.id, ["Open Tickets"], false);
  report(b, "Ad-hoc Query", null, null, "table");
  report(b, "Churn Map", marketing.id, null, "map");
  report(b, "Archived KPI", archive.id, null, "kpi");
  const slugged = workbook(b, "Team Metrics", null, ["Headcount"], false);
  slugged.slug = "team-metrics";
  const b2: Builder = { st, depId: 4187, day: 3 };
  const f2 = add(b2, "FOLDER", "Sandbox", null);
  workbook(b2, "Other Deployment Workbook", f2.id, ["Other Report"], true);
  workbook(b2, "Root Workbook D2", null, [], false);
}

function audit(): AuditRow[] {
  const users = [
    ["alice@example.test", "Alice"],
    ["bob@example.test", "Bob"],
    ["carol@example.test", "Carol"],
  ];
  const events = ["Logged in", "Logged out", "Workbook created", "API key created", "Dashboard published", "Logged in"];
  const rows: AuditRow[] = [];
  for (let i = 0; i < 42; i++) {
    const [email, name] = users[i % 3];
    const eventName = events[i % events.length];
    rows.push({
      id: `evt_${(9000 + i * 13).toString(36)}`,
      occurredAt: new Date(Date.UTC(2026, 10, 16 + (i % 7), 6 + (i % 12), (i * 7) % 60, 0)),
      eventName,
      userEmail: email,
      userName: name,
      ipAddress: `10.0.${i % 4}.${20 + i}`,
      data: { event: eventName, detail: i % 5 === 0 ? 'via SSO, "okta"' : `session ${i}`, deploymentId: i % 2 ? "4021" : "4187" },
    });
  }
  return rows.sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
}

export function seedState(): State {
  const st: State = {
    deployments: [],
    items: new Map(),
    dashboards: new Map(),
    audit: audit(),
    users: new Map(),
    callerUserId: 501,
    seq: { item: 1000, dashboard: 300, version: 7000, snapshot: 50000, branch: 900, deployment: 4300 },
  };
  st.users.set(501, { id: 501, email: "admin@example.test", firstName: "Ada", picture: null });
  st.users.set(502, { id: 502, email: "bob@example.test", firstName: null, picture: "https://img.example.test/bob.png" });
  const v = versions();
  st.deployments.push(deployment("4021", "Production Analytics", new Date(Date.UTC(2025, 4, 2, 10, 30)), v[3].releaseChannelVersion, "stable", 100));
  st.deployments.push(deployment("4187", "Staging Sandbox", new Date(Date.UTC(2025, 10, 20, 14, 5)), v[0].releaseChannelVersion, "edge", 200));
  seedWorkspace(st);
  return st;
}
