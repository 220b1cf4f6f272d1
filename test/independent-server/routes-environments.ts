// E2 (environments list), E3 (metadata tokens) and the metadata endpoints.
import { createHash } from "node:crypto";
import { signMetaToken } from "./auth.js";
import { cursorPage, encodeCursor, HttpError, isObject, offsetPage, ok, requireObjectBody, strAsc, type PageInfo } from "./http-util.js";
import type { Ctx, Route } from "./router.js";
import { findDeployment, type Branch, type Deployment } from "./store.js";

const TYPES = ["development", "staging", "production"] as const;
type EnvType = (typeof TYPES)[number];

export interface Env {
  id: string;
  type: EnvType;
  branch: string;
  user: string;
  api_credentials: Record<string, unknown>[];
  sortKey: string;
}

function envId(d: Deployment, b: Branch, type: EnvType): string {
  return `env_${createHash("sha1").update(`${d.id}:${b.id}:${type}`).digest("hex").slice(0, 14)}`;
}

export function environmentsOf(d: Deployment): Env[] {
  const out: Env[] = [];
  for (const b of d.branches) {
    const type: EnvType | null = b.kind === "production" ? "production" : b.kind === "personal" ? "development" : b.staging ? "staging" : null;
    if (!type) continue;
    const id = envId(d, b, type);
    const host = `${id.replace("_", "-")}.d${d.id}.platform.example`;
    out.push({
      id,
      type,
      branch: b.name,
      user: b.owner,
      sortKey: `${TYPES.indexOf(type)}:${b.name}`,
      api_credentials: [
        { type: "rest", version: 1, database: "analytics", host, port: 443, url: `https://${host}/api/v1` },
        { type: "sql", version: 1, database: "analytics", host, port: 5432, url: `postgres://${host}:5432/analytics` },
      ],
    });
  }
  return out.sort((a, b) => strAsc(a.sortKey, b.sortKey));
}

function publicEnv(e: Env): Record<string, unknown> {
  return { id: e.id, type: e.type, branch: e.branch, user: e.user, api_credentials: e.api_credentials };
}

function listEnvironments({ st, params, query }: Ctx) {
  const d = findDeployment(st, params.deploymentId);
  const type = query.get("type");
  if (type !== null && type !== "" && !(TYPES as readonly string[]).includes(type)) {
    throw new HttpError(422, "type must be one of production, staging, development");
  }
  const all = environmentsOf(d).filter((e) => !type || e.type === type);
  let items: Env[];
  let pageInfo: PageInfo;
  if (query.has("first") || query.has("after")) {
    ({ items, pageInfo } = cursorPage(all, (e) => e.sortKey, strAsc, query));
  } else {
    const p = offsetPage(all, query, 0);
    items = p.items;
    pageInfo = { hasNextPage: p.pagination.offset + items.length < all.length, hasPreviousPage: p.pagination.offset > 0 && all.length > 0 };
    if (items.length > 0) {
      pageInfo.startCursor = encodeCursor(items[0].sortKey);
      pageInfo.endCursor = encodeCursor(items[items.length - 1].sortKey);
    }
  }
  const pub = items.map(publicEnv);
  return ok({ items: pub, pageInfo, data: pub, pagination: null });
}

function findEnv(d: Deployment, id: string): Env {
  const e = environmentsOf(d).find((x) => x.id === id);
  if (!e) throw new HttpError(404, `environment ${id} not found`);
  return e;
}

function fmt(ms: number): string {
  const s = new Date(ms).toISOString();
  return s.endsWith(".000Z") ? s.replace(".000Z", "+00:00") : s.replace("Z", "+00:00");
}

function createMetaToken({ st, auth, params, body }: Ctx) {
  const d = findDeployment(st, params.deploymentId);
  const env = findEnv(d, params.environmentId);
  const b = requireObjectBody(body);
  if (!isObject(b.security_context)) throw new HttpError(422, "security_context is required and must be an object");
  let expiresIn = 86400;
  if (b.expires_in !== undefined && b.expires_in !== null) {
    const n = typeof b.expires_in === "string" && b.expires_in.trim() !== "" ? Number(b.expires_in) : b.expires_in;
    if (typeof n !== "number" || !Number.isFinite(n) || n <= 0 || n > 604800) {
      throw new HttpError(422, "expires_in must be a positive number of seconds, at most 604800");
    }
    expiresIn = n;
  }
  const now = Math.floor(Date.now() / 1000) * 1000;
  const exp = now + Math.round(expiresIn * 1000);
  const token = signMetaToken(auth, {
    scope: "meta",
    deploymentId: d.id,
    environmentId: env.id,
    securityContext: b.security_context,
    iat: now / 1000,
    exp: Math.ceil(exp / 1000),
  });
  return ok({ data: { token, created_at: fmt(now), expires_at: fmt(exp) } });
}

const ENTITIES = [
  { name: "orders", title: "Orders", dataSource: "warehouse", tenantColumn: "tenant_id" },
  { name: "customers", title: "Customers", dataSource: "warehouse", tenantColumn: "tenant_id" },
  { name: "web_events", title: "Web events", dataSource: "events", tenantColumn: null },
];

function checkMetaScope(c: Ctx): Env {
  const d = findDeployment(c.st, c.params.deploymentId);
  const env = findEnv(d, c.params.environmentId);
  if (c.principal.kind === "meta" && (c.principal.deploymentId !== d.id || c.principal.environmentId !== env.id)) {
    throw new HttpError(403, "metadata token was issued for another environment", "token_scope");
  }
  return env;
}

function visibleEntities(c: Ctx) {
  const sc = c.principal.kind === "meta" ? c.principal.securityContext : undefined;
  const allowed = isObject(sc) && Array.isArray(sc.entities) ? new Set(sc.entities.filter((x): x is string => typeof x === "string")) : null;
  return ENTITIES.filter((e) => !allowed || allowed.has(e.name));
}

const base = "/api/v1/deployments/:deploymentId/environments/:environmentId";

export const environmentRoutes: Route[] = [
  { method: "GET", path: "/api/v1/deployments/:deploymentId/environments", style: "control", handler: listEnvironments },
  { method: "POST", path: `${base}/tokens-for-meta-sync`, style: "control", handler: createMetaToken },
  {
    method: "GET",
    path: `${base}/meta/data-sources`,
    style: "control",
    meta: true,
    handler: (c) => {
      checkMetaScope(c);
      const names = [...new Set(visibleEntities(c).map((e) => e.dataSource))];
      return ok({ data: names.map((n) => ({ name: n, type: n === "events" ? "clickhouse" : "postgres" })) });
    },
  },
  {
    method: "GET",
    path: `${base}/meta/entities`,
    style: "control",
    meta: true,
    handler: (c) => {
      checkMetaScope(c);
      return ok({ data: visibleEntities(c).map((e) => ({ name: e.name, title: e.title, dataSource: e.dataSource })) });
    },
  },
  {
    method: "POST",
    path: `${base}/query`,
    style: "control",
    handler: (c) => {
      checkMetaScope(c);
      const b = requireObjectBody(c.body);
      if (!isObject(b.query)) throw new HttpError(422, "query must be an object");
      return ok({ data: [], query: b.query });
    },
  },
];
