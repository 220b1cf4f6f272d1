import { isDeepStrictEqual } from "node:util";
import { ENV_VAR_POOL } from "../generators/index.js";
import { pathTo } from "../core/spec/client.js";
import type { OperationName } from "../core/spec/operations.js";

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

/** Fields a read moves on its own (a view time): not a change the run made. */
const VOLATILE = new Set(["updatedAt", "lastViewedAt", "viewHistory", "lastActiveAt", "lastLoginAt"]);
const stable = (e: any) => (e && typeof e === "object" && !Array.isArray(e) ? Object.fromEntries(Object.entries(e).filter(([k]) => !VOLATILE.has(k))) : e);

function entriesOf(body: any): any[] {
  if (Array.isArray(body)) return body;
  for (const k of ["items", "data", "results"]) if (Array.isArray(body?.[k])) return body[k];
  if (body?.data && typeof body.data === "object") for (const v of Object.values(body.data)) if (Array.isArray(v)) return v;
  return [];
}

/** Every entry of a list, page after page; undefined where the server serves no such list. */
async function walk(base: string, token: string, path: string, query: Record<string, string> = {}): Promise<any[] | undefined> {
  const out: any[] = [];
  let after: string | undefined;
  for (let page = 0; page < 100; page++) {
    const u = new URL(base + path);
    for (const [k, v] of Object.entries({ ...query, ...(after ? { after } : {}) })) u.searchParams.set(k, v);
    const res = await fetch(u, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) {
      if (page === 0) return undefined;
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
async function folders(base: string, token: string, dep: string): Promise<any[] | undefined> {
  const path = pathTo("listFolders", { deploymentId: dep });
  const root = await walk(base, token, path);
  if (!root) return undefined;
  const found = new Map<number, any>(root.map((f) => [f.id, f]));
  const queue = root.map((f) => f.id);
  while (queue.length) {
    for (const f of (await walk(base, token, path, { parentId: String(queue.shift()) })) ?? []) {
      if (found.has(f.id)) continue;
      found.set(f.id, f);
      queue.push(f.id);
    }
  }
  return [...found.values()];
}

export async function apiSnapshot(base: string, token: string): Promise<ApiSnapshot> {
  const snap: ApiSnapshot = new Map();
  const deployments = (await walk(base, token, pathTo("listDeployments"))) ?? [];
  snap.set("deployments", keyed(deployments));
  for (const d of deployments) {
    const dep = String(d.id);
    for (const op of PER_DEPLOYMENT) {
      const entries = await walk(base, token, pathTo(op, { deploymentId: dep }));
      if (entries) snap.set(`deployment ${dep} ${op}`, keyed(entries));
    }
    const f = await folders(base, token, dep);
    if (f) snap.set(`deployment ${dep} listFolders`, keyed(f));
  }
  for (const op of TENANT) {
    const entries = await walk(base, token, pathTo(op));
    if (entries) snap.set(op, keyed(entries));
  }
  return snap;
}

/** A collection's entries but the tool's fixed variables, which a run may set and cannot delete. */
const withoutPool = (key: string, entries: Map<string, unknown> = new Map()) =>
  key.endsWith(" listEnvVars") ? new Map([...entries].filter(([, v]) => !ENV_VAR_POOL.includes((v as any)?.name))) : entries;

/** Every entry added, removed or changed between two snapshots (the fixed variables aside), one line each. */
export function snapshotDifferences(before: ApiSnapshot, after: ApiSnapshot): string[] {
  const out: string[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const b = withoutPool(key, before.get(key));
    const a = withoutPool(key, after.get(key));
    for (const [id, e] of a) if (!b.has(id)) out.push(`${key}: added ${id} ${JSON.stringify(e).slice(0, 160)}`);
    for (const [id, e] of b) if (!a.has(id)) out.push(`${key}: removed ${id} ${JSON.stringify(e).slice(0, 160)}`);
    for (const [id, e] of b)
      if (a.has(id) && !isDeepStrictEqual(e, a.get(id)))
        out.push(`${key}: changed ${id} ${JSON.stringify(e).slice(0, 160)} -> ${JSON.stringify(a.get(id)).slice(0, 160)}`);
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

/** How many entries a snapshot holds in all. */
export const entryCount = (s: ApiSnapshot) => [...s.values()].reduce((n, m) => n + m.size, 0);
