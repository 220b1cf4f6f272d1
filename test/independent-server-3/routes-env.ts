// E2 environments, E3 metadata tokens, E4 staging toggle.
import { createHmac, randomBytes } from "node:crypto";
import { deploymentFor, requireApiKey, requireRole } from "./auth.js";
import type { AppRouter, Call } from "./ctx.js";
import { fBool, fInt, fStr, invalid, isObj, notFound, objBody, ok, qEnum, wrap } from "./http.js";
import type { Json, Reply } from "./http.js";
import { cursorPage, offsetPage } from "./paging.js";
import { branchJson } from "./serialize.js";
import type { Branch, Deployment, Store } from "./store.js";

export const ENV_TYPES = ["production", "staging", "development"] as const;

function slugName(d: Deployment): string {
  return d.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function creds(d: Deployment, prefix: string): Json[] {
  const host = `${prefix}${slugName(d)}.acme-analytics.test`;
  return [
    { type: "rest", version: 1, database: "analytics", host, port: 443, url: `https://${host}/cubejs-api/v1` },
    { type: "sql", version: 1, database: "analytics", host: `sql.${host}`, port: 5432, url: `postgres://sql.${host}:5432/analytics` },
  ];
}

interface EnvRow {
  at: string;
  env: Json;
}

export function environments(store: Store, d: Deployment): Json[] {
  const rows: EnvRow[] = [];
  for (const b of store.branchesOf(d.id)) {
    if (b.kind === "production")
      rows.push({ at: d.createdAt, env: { id: `prod-${d.id}-${b.id}`, type: "production", branch: b.name, api_credentials: creds(d, "") } });
    else if (b.staging)
      rows.push({ at: b.createdAt, env: { id: `stg-${d.id}-${b.id}`, type: "staging", branch: b.name, api_credentials: creds(d, `${b.name}--`) } });
  }
  for (const [k, sess] of store.devSessions) {
    const [uid, did] = k.split(":").map(Number);
    if (did !== d.id) continue;
    const b = store.findBranch(d.id, sess.branchName);
    const u = store.users.get(uid!);
    if (!b || !u) continue;
    rows.push({
      at: sess.startedAt,
      env: { id: `dev-${d.id}-${b.id}-${u.id}`, type: "development", branch: b.name, user: u.email, api_credentials: creds(d, `dev-${u.id}--`) },
    });
  }
  return rows.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).map((r) => r.env);
}

function listEnvironments(c: Call): Reply {
  requireApiKey(c.p);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const type = qEnum(c.q, "type", ENV_TYPES);
  const all = environments(c.store, d).filter((e) => !type || e["type"] === type);
  const legacy = offsetPage(all, c.q, 0);
  const page = cursorPage(all, c.q, `environments:${d.id}:${type ?? ""}`, true);
  return ok({ items: page.rows, pageInfo: page.pageInfo, data: legacy.rows, pagination: legacy.pagination });
}

function b64(v: unknown): string {
  return Buffer.from(JSON.stringify(v)).toString("base64url");
}

function metaToken(c: Call): Reply {
  requireApiKey(c.p);
  requireRole(c.p, "DEVELOPER", "issuing a metadata token");
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const envId = c.params["environmentId"];
  if (!environments(c.store, d).some((e) => e["id"] === envId)) throw notFound(`environment ${envId ?? ""} not found in deployment ${d.id}`);
  const b = objBody(c.body);
  if (b["security_context"] === undefined) throw invalid("security_context is required");
  if (!isObj(b["security_context"])) throw invalid("security_context must be an object");
  const sc = b["security_context"];
  let expiresIn = 86400;
  if (b["expires_in"] !== undefined) {
    const e = b["expires_in"];
    if (typeof e !== "number" || !Number.isFinite(e)) throw invalid("expires_in must be a number of seconds");
    if (e <= 0 || e > 31536000) throw invalid("expires_in must be between 1 and 31536000 seconds");
    expiresIn = e;
  }
  const now = new Date();
  const exp = new Date(now.getTime() + expiresIn * 1000);
  const payload = {
    ...sc,
    iat: Math.floor(now.getTime() / 1000),
    exp: Math.floor(exp.getTime() / 1000),
    scope: ["meta"],
    deploymentId: d.id,
    environmentId: envId,
    jti: randomBytes(8).toString("hex"),
  };
  const unsigned = `${b64({ alg: "HS256", typ: "JWT" })}.${b64(payload)}`;
  const token = `${unsigned}.${createHmac("sha256", `meta-secret-${d.id}`).update(unsigned).digest("base64url")}`;
  c.store.metaTokens.add(token);
  return wrap({ token, created_at: now.toISOString(), expires_at: exp.toISOString(), security_context: sc, scopes: ["meta"] });
}

export function branchByRef(store: Store, d: Deployment, b: Json): Branch {
  const name = fStr(b, "branchName", false);
  const id = fInt(b, "branchId", false) as number | undefined;
  if (name === undefined && id === undefined) throw invalid("one of branchName or branchId is required");
  const byName = name !== undefined ? store.findBranch(d.id, name) : undefined;
  const byId = id !== undefined ? store.branchesOf(d.id).find((x) => x.id === id) : undefined;
  if (name !== undefined && !byName) throw notFound(`branch ${name} not found`);
  if (id !== undefined && !byId) throw notFound(`branch ${id} not found`);
  if (byName && byId && byName !== byId) throw invalid("branchName and branchId refer to different branches");
  return (byName ?? byId)!;
}

function stagingToggle(c: Call): Reply {
  requireApiKey(c.p);
  requireRole(c.p, "DEVELOPER", "changing a staging environment");
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const b = objBody(c.body);
  const enabled = fBool(b, "enabled", true)!;
  const br = branchByRef(c.store, d, b);
  if (enabled && br.kind !== "shared") {
    throw invalid(
      br.kind === "production"
        ? `branch ${br.name} is the production branch: only shared branches can have an always-on staging environment`
        : `branch ${br.name} is a personal development branch: only shared branches can have an always-on staging environment`,
    );
  }
  br.staging = enabled;
  return wrap(branchJson(br));
}

export function registerEnv(r: AppRouter): void {
  r.add("GET", "/api/v1/deployments/{deploymentId}/environments", listEnvironments);
  r.add("POST", "/api/v1/deployments/{deploymentId}/environments/{environmentId}/tokens-for-meta-sync", metaToken);
  r.add("PUT", "/build/api/v1/deployments/{deploymentId}/branches/staging-environment", stagingToggle);
}
