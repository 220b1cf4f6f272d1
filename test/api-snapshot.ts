import { isDeepStrictEqual } from "node:util";
import { ENV_VAR_POOL, TEMPLATE_VARIABLE_POOL, fixedAttributeName } from "../core/api/fixed-names.js";
import { pathTo } from "../core/transport/client.js";
import type { OperationName } from "../core/api/operations.js";

/**
 * The state of every collection the suite knows, read through a server's own API with a plain
 * fetch (not through the suite's client or its list walker, which are what is measured): for a
 * server whose store a test cannot read, the state before and after a run.
 */

/** Entries of a collection by id; a key per collection (`deployment 1 reports`, `users`). */
export type ApiSnapshot = Map<string, Map<string, unknown>>;

/** Collections of each deployment, and collections of the tenant. */
const PER_DEPLOYMENT: OperationName[] = ["listWorkbooks", "listReports", "listBranches", "listDataModelFiles", "listEnvVars"];
const TENANT: OperationName[] = ["listUsers", "listGroups", "listUserAttributes", "listEmbedTenants", "listOauthIntegrations", "listOidcTokenConfigs"];

/**
 * Settings-like records, one answer each (not lists): a deployment's settings (E6's fields and its
 * template variables, however the server wraps them) and the tenant's settings. Read only when a
 * test asks (`records`), as a run with deployment changes or admin writes is the one that moves them.
 */
const RECORD_PER_DEPLOYMENT: OperationName[] = ["getDeploymentSettings"];
const TENANT_RECORDS: OperationName[] = ["getTenantSettings"];

/** Fields a read moves on its own (a view time): not a change the run made. */
const VOLATILE = new Set(["updatedAt", "lastViewedAt", "viewHistory", "lastActiveAt", "lastLoginAt"]);
const stable = (e: any) => (e && typeof e === "object" && !Array.isArray(e) ? Object.fromEntries(Object.entries(e).filter(([k]) => !VOLATILE.has(k))) : e);

function entriesOf(body: any): any[] {
  if (Array.isArray(body)) return body;
  for (const k of ["items", "data", "results"]) if (Array.isArray(body?.[k])) return body[k];
  if (body?.data && typeof body.data === "object") for (const v of Object.values(body.data)) if (Array.isArray(v)) return v;
  return [];
}

/**
 * A GET that waits out a 429 or 503 (Retry-After, else a second), as a client would: a server that
 * limits requests per key (independent-server-4) still counts the run's last burst when the
 * snapshot after it starts.
 */
async function get(url: URL | string, token: string): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (![429, 503].includes(res.status) || attempt === 20) return res;
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, Math.min(5, Number(res.headers.get("retry-after")) || 1) * 1000));
  }
}

/**
 * Every entry of a list, page after page; the status where its first read answers no 200 (no such
 * list, or a key the run left without the right to read it: both are shown, never an empty list).
 */
async function walk(base: string, token: string, path: string, query: Record<string, string> = {}): Promise<any[] | number> {
  const out: any[] = [];
  let after: string | undefined;
  for (let page = 0; page < 100; page++) {
    const u = new URL(base + path);
    for (const [k, v] of Object.entries({ ...query, ...(after ? { after } : {}) })) u.searchParams.set(k, v);
    const res = await get(u, token);
    if (res.status !== 200) {
      if (page === 0) return res.status;
      throw new Error(`GET ${u} answered ${res.status} in the middle of a walk`);
    }
    const body: any = await res.json();
    out.push(...entriesOf(body));
    const next = body?.pageInfo?.hasNextPage ? body.pageInfo.endCursor : undefined;
    if (typeof next !== "string" || next === after) break;
    after = next;
  }
  return out;
}

const keyed = (entries: any[]) => new Map(entries.map((e, i) => [String(e?.id ?? e?.name ?? e?.path ?? i), stable(e)]));

/** The folders of a deployment, level by level from the root (a folders list may hold one level). */
async function folders(base: string, token: string, dep: string): Promise<any[] | number> {
  const path = pathTo("listFolders", { deploymentId: dep });
  const root = await walk(base, token, path);
  if (typeof root === "number") return root;
  const found = new Map<number, any>(root.map((f) => [f.id, f]));
  const queue = root.map((f) => f.id);
  while (queue.length) {
    const level = await walk(base, token, path, { parentId: String(queue.shift()) });
    for (const f of typeof level === "number" ? [] : level) {
      if (found.has(f.id)) continue;
      found.set(f.id, f);
      queue.push(f.id);
    }
  }
  return [...found.values()];
}

/** One record's answer, its volatile fields dropped at every depth; the status where it answers no 200. */
async function record(base: string, token: string, path: string): Promise<Map<string, unknown>> {
  const res = await get(base + path, token);
  if (res.status !== 200) return unreadable(res.status);
  const deep = (v: any): any =>
    Array.isArray(v) ? v.map(deep) : v && typeof v === "object" ? Object.fromEntries(Object.entries(stable(v)).map(([k, x]) => [k, deep(x)])) : v;
  return new Map([["record", deep(await res.json())]]);
}

/** A read that answered no 200: one entry saying so, so that a read lost after a run is a difference. */
const unreadable = (status: number) => new Map<string, unknown>([["unreadable", `answered ${status}`]]);
const entriesOrStatus = (read: any[] | number) => (typeof read === "number" ? unreadable(read) : keyed(read));

export async function apiSnapshot(base: string, token: string, opts: { records?: boolean } = {}): Promise<ApiSnapshot> {
  const snap: ApiSnapshot = new Map();
  const listed = await walk(base, token, pathTo("listDeployments"));
  snap.set("deployments", entriesOrStatus(listed));
  const deployments = typeof listed === "number" ? [] : listed;
  for (const d of deployments) {
    const dep = String(d.id);
    for (const op of PER_DEPLOYMENT) {
      snap.set(`deployment ${dep} ${op}`, entriesOrStatus(await walk(base, token, pathTo(op, { deploymentId: dep }))));
    }
    snap.set(`deployment ${dep} listFolders`, entriesOrStatus(await folders(base, token, dep)));
    for (const op of opts.records ? RECORD_PER_DEPLOYMENT : []) {
      snap.set(`deployment ${dep} ${op}`, await record(base, token, pathTo(op, { deploymentId: dep })));
    }
  }
  for (const op of opts.records ? TENANT_RECORDS : []) {
    snap.set(op, await record(base, token, pathTo(op)));
  }
  for (const op of TENANT) {
    snap.set(op, entriesOrStatus(await walk(base, token, pathTo(op))));
  }
  return snap;
}

/** The names a run may leave set (the plan announces them): a record may show them anywhere. */
const FIXED = new Set([...ENV_VAR_POOL, ...TEMPLATE_VARIABLE_POOL]);

/**
 * A record without the tool's fixed names at any depth: a server may wrap the settings in `data`,
 * `settings` or both, keep template variables as an object by name or a list of `{name}`, and show
 * the deployment's environment variable names in its settings (independent-server-3's `envVarNames`).
 */
function withoutFixedNames(v: any): any {
  if (Array.isArray(v)) return v.filter((x) => !FIXED.has(typeof x === "string" ? x : (x?.name ?? x?.key))).map(withoutFixedNames);
  if (!v || typeof v !== "object") return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => !FIXED.has(k))
      .map(([k, x]) => [k, withoutFixedNames(x)]),
  );
}

/**
 * A collection's entries but the tool's fixed names, which a run may set and cannot delete (the plan
 * announces them): environment variables of ENV_VAR_POOL, user attributes of one fixed name a type,
 * those and template variables of TEMPLATE_VARIABLE_POOL inside a settings record or a deployment's entry.
 */
function withoutPool(key: string, entries: Map<string, unknown> = new Map()): Map<string, unknown> {
  if (key.endsWith(" listEnvVars")) return new Map([...entries].filter(([, v]) => !ENV_VAR_POOL.includes((v as any)?.name)));
  if (key === "listUserAttributes")
    return new Map([...entries].filter(([, v]: [string, any]) => !(typeof v?.type === "string" && v?.name === fixedAttributeName(v.type))));
  // A server may show a deployment's template variables in its E1 entry too (independent-server-4 does).
  if (key.endsWith("Settings") || key === "deployments") return new Map([...entries].map(([id, v]) => [id, withoutFixedNames(v)]));
  return entries;
}

/** Where two values differ, each as `path: before -> after` (a settings record is one deep object: the line names the field). */
function changedPaths(b: any, a: any, at = ""): string[] {
  const objects = b && a && typeof b === "object" && typeof a === "object" && !Array.isArray(b) && !Array.isArray(a);
  if (!objects) return isDeepStrictEqual(b, a) ? [] : [`${at || "."}: ${JSON.stringify(b)?.slice(0, 120)} -> ${JSON.stringify(a)?.slice(0, 120)}`];
  return [...new Set([...Object.keys(b), ...Object.keys(a)])].flatMap((k) => changedPaths(b[k], a[k], `${at}.${k}`));
}

/** Every entry added, removed or changed between two snapshots (the fixed variables aside), one line each. */
export function snapshotDifferences(before: ApiSnapshot, after: ApiSnapshot): string[] {
  const out: string[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const b = withoutPool(key, before.get(key));
    const a = withoutPool(key, after.get(key));
    for (const [id, e] of a) if (!b.has(id)) out.push(`${key}: added ${id} ${JSON.stringify(e).slice(0, 160)}`);
    for (const [id, e] of b) if (!a.has(id)) out.push(`${key}: removed ${id} ${JSON.stringify(e).slice(0, 160)}`);
    for (const [id, e] of b)
      if (a.has(id) && !isDeepStrictEqual(e, a.get(id))) out.push(`${key}: changed ${id} ${changedPaths(e, a.get(id)).join("; ").slice(0, 400)}`);
  }
  return out;
}

/** The names of the variables each deployment holds, the fixed ones included. */
export const envVarNames = (s: ApiSnapshot) =>
  [...s]
    .filter(([k]) => k.endsWith(" listEnvVars"))
    .map(
      ([k, entries]) =>
        `${k}: ${[...entries.values()]
          .map((v: any) => v?.name)
          .sort()
          .join(", ")}`,
    );

/** How many settings-like records a snapshot holds (the one-answer reads, not the lists). */
export const recordCount = (s: ApiSnapshot) => [...s.values()].filter((entries) => entries.has("record")).length;

/** How many entries a snapshot holds in all. */
export const entryCount = (s: ApiSnapshot) => [...s.values()].reduce((n, m) => n + m.size, 0);

/** The deployment a test names for deployment changes where nothing is configured: the first listed (the test's choice, not the suite's). */
export async function firstDeployment(base: string, token: string): Promise<string> {
  const list: any = await fetch(base + pathTo("listDeployments"), { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
  return String((list.data?.deployments ?? list.data ?? list.items)[0].id);
}
