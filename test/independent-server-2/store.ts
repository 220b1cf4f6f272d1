import { randomBytes } from "node:crypto";

export type Deployment = {
  id: string;
  name: string;
  createdAt: Date;
  cloudProvider: string;
  region: string;
  releaseChannel: string;
  releaseChannelVersion: string;
  releaseChannelVersionHold: boolean;
  image: string;
  template: string | null;
  templateVariables: Record<string, unknown>;
  defaultLaunchpadViewGroup: unknown;
  launchpadTabs: unknown;
  creationMethod: string;
  deployMode: string;
  secrets: Record<string, string>;
};
export type Branch = {
  id: number;
  deploymentId: string;
  name: string;
  parentBranch: string | null;
  lastHash: string;
  staging: boolean;
  personalOf: string | null;
  devMode: boolean;
};
export type Version = { releaseChannel: string; version: string; isLatestInChannel: boolean };
export type Item = {
  id: number;
  deploymentId: number;
  type: "FOLDER" | "WORKBOOK" | "REPORT";
  name: string;
  folderId: number | null;
  meta: Record<string, unknown>;
  calculatedFields: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  createdBy: number;
  slug: string | null;
  position: number;
  isFavorite: boolean;
  dashboardDraft: Record<string, unknown> | null;
  dashboardPublished: Record<string, unknown> | null;
  published: Published | null;
};
export type Snapshot = Record<string, unknown> & { id: number; reportId: number; versionNumber: number };
export type Published = {
  id: number;
  publicId: string;
  workbookId: number;
  status: "draft" | "published" | "archived";
  allowEmbed: boolean;
  config: Record<string, unknown>;
  versionNumber: number;
  versionId: number;
  reportSnapshots: Snapshot[];
  createdBy: number;
  title: string | null;
  description: string | null;
};
export type AuditRow = { at: Date; email: string; event: string; deployment: string; ip: string; attrs: Record<string, unknown> };

export const OWNER = { id: 7001, email: "admin@example.test", firstName: "Ada", picture: null };
export const USERS = ["admin@example.test", "bo.analyst@example.test", "cy.viewer@example.test", "dee.ops@example.test"];
export const WORKBOOK_LIMIT = 120;
export const MAX_FOLDER_DEPTH = 4;

export class Store {
  deployments = new Map<string, Deployment>();
  branches: Branch[] = [];
  versions: Version[] = [
    { releaseChannel: "latest", version: "1.7.20", isLatestInChannel: true },
    { releaseChannel: "latest", version: "1.7.18", isLatestInChannel: false },
    { releaseChannel: "latest", version: "1.6.31", isLatestInChannel: false },
    { releaseChannel: "release", version: "1.6.9", isLatestInChannel: true },
    { releaseChannel: "release", version: "1.5.14", isLatestInChannel: false },
  ];
  items = new Map<number, Item>();
  envVars = new Map<string, Map<string, string>>();
  audit: AuditRow[] = [];
  jwtSecret = randomBytes(32);
  token = "pk_" + randomBytes(18).toString("hex");
  nextId = 30100;
  nextBranch = 510;
  nextPub = 880;
  nextSnap = 9400;
  writeSeq = 0;

  id(): number {
    return (this.nextId += 3);
  }

  itemsOf(dep: number): Item[] {
    return [...this.items.values()].filter((i) => i.deploymentId === dep);
  }
  depthOf(folderId: number | null): number {
    let d = 0;
    let cur = folderId;
    while (cur !== null && d < 50) {
      const f = this.items.get(cur);
      if (!f) break;
      d++;
      cur = f.folderId;
    }
    return d;
  }
  ancestors(folderId: number | null): { id: number; name: string }[] {
    const out: { id: number; name: string }[] = [];
    let cur = folderId;
    let guard = 0;
    while (cur !== null && guard++ < 50) {
      const f = this.items.get(cur);
      if (!f) break;
      out.unshift({ id: f.id, name: f.name });
      cur = f.folderId;
    }
    return out;
  }
}

function versionRef(v: string): string {
  return `cubejs/cube:v${v}`;
}
export { versionRef };

const day = 86_400_000;

export function seed(): Store {
  const s = new Store();
  const base = Date.UTC(2026, 10, 20, 9, 15, 0);
  const deps: [string, string, string, string][] = [
    ["4021", "Revenue Analytics", "latest", "1.7.18"],
    ["4022", "Ops Metrics", "release", "1.6.9"],
    ["4030", "Sandbox", "latest", "1.7.20"],
  ];
  deps.forEach(([id, name, ch, v], i) => {
    s.deployments.set(id, {
      id,
      name,
      createdAt: new Date(base - (400 - i * 90) * day),
      cloudProvider: "aws",
      region: i === 1 ? "eu-central-1" : "us-east-1",
      releaseChannel: ch,
      releaseChannelVersion: versionRef(v),
      releaseChannelVersionHold: id === "4021",
      image: versionRef(v),
      template: null,
      templateVariables: { tier: "standard", replicas: 2 },
      defaultLaunchpadViewGroup: null,
      launchpadTabs: [],
      creationMethod: "github",
      deployMode: "git",
      secrets: { dbPassword: "hunter2", apiSecret: "s3cr3t" },
    });
    const mk = (name: string, parent: string | null, personalOf: string | null, staging = false, devMode = false) =>
      s.branches.push({
        id: (s.nextBranch += 7),
        deploymentId: id,
        name,
        parentBranch: parent,
        lastHash: randomBytes(20).toString("hex"),
        staging,
        personalOf,
        devMode,
      });
    mk("master", null, null);
    mk("feature-pricing", "master", null, i === 0);
    mk("release-candidate", "master", null);
    mk("dev-bo-analyst", "master", USERS[1]!, false, true);
    mk("dev-admin", "feature-pricing", USERS[0]!, false, true);
    const vars = new Map<string, string>();
    const names = [
      "DB_HOST",
      "DB_PORT",
      "DB_USER",
      "DB_PASS",
      "CUBEJS_API_SECRET",
      "SLACK_TOKEN",
      "AWS_ACCESS_KEY_ID",
      "GCP_CREDENTIALS_JSON",
      "LOG_LEVEL",
      "TZ",
      "CACHE_TTL",
      "FEATURE_FLAGS",
      "REFRESH_WORKER",
      "SCHEDULED_REFRESH_TIMEZONES",
      "DB_NAME",
      "DB_SSL",
      "SMTP_PASSWORD",
      "WEBHOOK_URL",
      "MAX_POOL",
      "REGION_HINT",
    ];
    names.forEach((n, k) => vars.set(n, n.includes("PORT") ? "5432" : `value-${k}-${id}`));
    s.envVars.set(id, vars);
  });
  seedWorkspace(s, 4021, 44, base);
  seedWorkspace(s, 4022, 9, base);
  const events = ["Logged in", "Logged out", "Deployment updated", "Workbook created", "API key created", "Env vars updated"];
  for (let k = 0; k < 60; k++) {
    s.audit.push({
      at: new Date(base - (k % 9) * day - (k * 3_600_000) / 2),
      email: USERS[k % USERS.length]!,
      event: events[(k * 5) % events.length]!,
      deployment: deps[k % 3]![1],
      ip: `203.0.113.${10 + (k % 40)}`,
      attrs: { agent: "Mozilla/5.0", note: k % 4 === 0 ? "password=[HIDDEN]" : 'ok, "quoted"' },
    });
  }
  return s;
}

function seedWorkspace(s: Store, dep: number, count: number, base: number): void {
  const add = (type: Item["type"], name: string, folderId: number | null, extra: Partial<Item> = {}): Item => {
    const id = s.id();
    const it: Item = {
      id,
      deploymentId: dep,
      type,
      name,
      folderId,
      meta: {},
      calculatedFields: {},
      createdAt: new Date(base - (id % 50) * day),
      updatedAt: new Date(base - (id % 50) * day + (id % 5) * day),
      createdBy: OWNER.id,
      slug: null,
      position: id % 11,
      isFavorite: id % 4 === 0,
      dashboardDraft: null,
      dashboardPublished: null,
      published: null,
      ...extra,
    };
    s.items.set(id, it);
    return it;
  };
  const top = add("FOLDER", "Finance", null);
  const sub = add("FOLDER", "Quarterly", top.id);
  const subsub = add("FOLDER", "Q3 Deep Dive", sub.id);
  const other = add("FOLDER", "Marketing", null);
  const empty = add("FOLDER", "Archive", null);
  const folders = [null, top.id, sub.id, subsub.id, other.id, empty.id];
  let n = 5;
  let w = 0;
  while (n < count) {
    const folder = folders[w % 5]!;
    const wb = add("WORKBOOK", `Workbook ${w + 1}`, folder, { slug: w < 3 ? `seed-wb-${w + 1}` : null, meta: { color: "blue", tags: ["seed"] } });
    n++;
    const reps: Item[] = [];
    for (let r = 0; r < 3 && n < count; r++, n++) {
      reps.push(add("REPORT", `Report ${w + 1}.${r + 1}`, folder, { meta: { workbookId: wb.id, kind: "vega", sqlQuery: `select ${r} as x` } }));
    }
    if (w % 2 === 0 && reps.length > 0) publish(s, wb, reps);
    w++;
  }
}

export function dashConfig(reps: Item[], title: string): Record<string, unknown> {
  return {
    kind: "CLASSIC",
    title,
    description: "Seeded dashboard",
    widgets: reps.map((r, i) => ({
      id: `w${i + 1}`,
      type: "CHART",
      position: { x: (i % 2) * 6, y: Math.floor(i / 2) * 4, w: 6, h: 4 },
      config: { reportId: r.id },
      style: null,
    })),
    layout: { rowHeight: 40, cols: { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 }, margin: [8, 8] },
    settings: {},
    theme: {},
  };
}

export function publish(s: Store, wb: Item, reps: Item[]): void {
  const config = dashConfig(reps, wb.name);
  wb.dashboardDraft = structuredClone(config);
  wb.dashboardPublished = structuredClone(config);
  wb.published = {
    id: (s.nextPub += 5),
    publicId: randomBytes(8).toString("hex"),
    workbookId: wb.id,
    status: "published",
    allowEmbed: wb.id % 2 === 0,
    config,
    versionNumber: 2,
    versionId: s.nextPub * 10 + 1,
    createdBy: OWNER.id,
    title: wb.name,
    description: null,
    reportSnapshots: reps.map((r) => ({
      id: (s.nextSnap += 3),
      reportId: r.id,
      versionNumber: 1,
      kind: "vega",
      name: r.name,
      title: r.name,
      description: null,
      sqlQuery: String(r.meta["sqlQuery"] ?? ""),
      spec: { mark: "bar" },
      meta: null,
      isSourceReport: true,
    })),
  };
}
