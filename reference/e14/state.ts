import type { DeploymentRecord, Store } from "../store.js";

/**
 * The reference's state for the E14 families (shapes "not shown" in the spec; the served document
 * declares them). Kept beside the core store, created on first use for each store, so that the
 * E1-E13 state and seed stay exactly as they were.
 */
export type Rec = Record<string, any> & { id: string | number };

export interface DbtJob {
  id: string;
  deploymentId: number;
  status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
  trigger: "api" | "schedule" | "webhook";
  branchName: string;
  ref: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** Polls left before a running job finishes on its own. */
  pollsLeft: number;
}

export interface UserAdmin {
  status: "active" | "deactivated";
  role: string;
  deleted: boolean;
  lastName: string | null;
}

export interface E14State {
  /** Generic resources of the engine: resource name -> scope key -> id -> record. */
  resources: Map<string, Map<string, Map<string, Rec>>>;
  /** Data-model files: deployment id -> branch name -> file name -> content. */
  files: Map<number, Map<string, Map<string, string>>>;
  /** Dev mode: deployment id -> branch in dev mode -> the user who started it (a user may have several). */
  devMode: Map<number, Map<string, number>>;
  uploads: Map<string, { deploymentId: number; branchName: string; files: Map<string, string> }>;
  dbtJobs: DbtJob[];
  /** Reports: report id -> its public id and last view. */
  reportExtras: Map<number, { publicId: string; lastViewedAt: string | null; externalWorkbookId: string | null }>;
  placements: Map<
    string,
    { placementId: string; reportId: number; externalWorkbookId: string; sheetName: string; anchorCell: string; refreshedAt: string | null }
  >;
  /** Workbook id -> embed tenant id (or "*" for all embed users) -> action. */
  embedAccess: Map<number, Map<string, "read" | "none">>;
  users: Map<number, UserAdmin>;
  /** User id -> attribute id -> value. */
  attributeValues: Map<number, Map<string, unknown>>;
  tenantSettings: Record<string, unknown>;
  creationStep: Map<number, number>;
  githubConnected: Map<number, { owner: string; repo: string; branch: string }>;
  nextId: number;
}

const states = new WeakMap<Store, E14State>();

export function e14(store: Store): E14State {
  let s = states.get(store);
  if (!s) {
    s = seedE14(store);
    states.set(store, s);
  }
  return s;
}

export const newId = (s: E14State) => s.nextId++;

export function nowIso(): string {
  return new Date().toISOString();
}

const SEED_FILES: [string, string][] = [
  ["model/cubes/orders.yml", "cubes:\n  - name: orders\n    sql_table: public.orders\n    measures:\n      - name: count\n        type: count\n"],
  [
    "model/cubes/customers.yml",
    "cubes:\n  - name: customers\n    sql_table: public.customers\n    dimensions:\n      - name: id\n        sql: id\n        type: number\n        primary_key: true\n",
  ],
  ["model/views/revenue.yml", 'views:\n  - name: revenue\n    cubes:\n      - join_path: orders\n        includes: "*"\n'],
];

function filesOf(dep: DeploymentRecord): Map<string, Map<string, string>> {
  const byBranch = new Map<string, Map<string, string>>();
  for (const b of dep.branches) byBranch.set(b.name, new Map(SEED_FILES));
  return byBranch;
}

function seedE14(store: Store): E14State {
  const s: E14State = {
    resources: new Map(),
    files: new Map(),
    devMode: new Map(),
    uploads: new Map(),
    dbtJobs: [],
    reportExtras: new Map(),
    placements: new Map(),
    embedAccess: new Map(),
    users: new Map(store.users.map((u) => [u.id, { status: "active", role: u.permissions.size ? "ADMIN" : "VIEWER", deleted: false, lastName: null }])),
    attributeValues: new Map(),
    tenantSettings: { defaultTimezone: "UTC", allowPublicDashboards: false, sessionTimeoutMinutes: 720, ssoEnforced: false },
    creationStep: new Map(),
    githubConnected: new Map(),
    nextId: 1,
  };
  for (const dep of store.deployments.slice(0, 3)) {
    s.files.set(dep.id, filesOf(dep));
    // Every personal branch is its owner's dev-mode branch.
    const dev = new Map<string, number>();
    for (const u of store.users) {
      const b = dep.branches.find((x) => x.kind === "personal" && x.owner === u.email);
      if (b) dev.set(b.name, u.id);
    }
    s.devMode.set(dep.id, dev);
    const triggers = ["schedule", "api", "webhook"] as const;
    const ends = ["succeeded", "failed", "succeeded", "cancelled"] as const;
    for (let i = 0; i < 6; i++) {
      const at = new Date(Date.UTC(2026, 0, 10 + i)).toISOString();
      s.dbtJobs.push({
        id: `dbt-${dep.id}-${newId(s)}`,
        deploymentId: dep.id,
        status: ends[i % ends.length],
        trigger: triggers[i % triggers.length],
        branchName: dep.branches[0].name,
        ref: null,
        createdAt: at,
        finishedAt: at,
        pollsLeft: 0,
      });
    }
  }
  let n = 0;
  for (const item of store.items.values()) {
    if (item.type !== "REPORT") continue;
    n++;
    s.reportExtras.set(item.id, {
      publicId: `rpt-${item.deploymentId}-${item.id}`,
      lastViewedAt: n % 3 === 0 ? null : new Date(Date.UTC(2026, 1, 1) + ((item.id * 7919) % 97) * 3_600_000).toISOString(),
      externalWorkbookId: n % 4 === 0 ? `xlsx-${n % 3}` : null,
    });
  }
  return s;
}

/** The files of a branch, created empty for a branch that has none yet. */
export function branchFiles(s: E14State, dep: DeploymentRecord, branch: string): Map<string, string> {
  let byBranch = s.files.get(dep.id);
  if (!byBranch) s.files.set(dep.id, (byBranch = filesOf(dep)));
  let files = byBranch.get(branch);
  if (!files) byBranch.set(branch, (files = new Map()));
  return files;
}

export function devModeOf(s: E14State, depId: number): Map<string, number> {
  let m = s.devMode.get(depId);
  if (!m) s.devMode.set(depId, (m = new Map()));
  return m;
}
