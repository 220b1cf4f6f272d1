// Authentication (401 vs 403) and access rules for deployments and workspace items.
import type { IncomingMessage } from "node:http";
import { HttpError, forbidden, notFound } from "./http.js";
import { ACCESS_RANK, ROLE_RANK } from "./store.js";
import type { Access, ApiKey, Deployment, Item, Role, Store, User } from "./store.js";

export interface Principal {
  key: ApiKey;
  user: User;
}

/** 401 when the credential is missing, malformed, unknown or its user is deactivated. */
export function authenticate(store: Store, req: IncomingMessage): Principal {
  const h = req.headers["authorization"];
  if (typeof h !== "string" || h.trim() === "") throw new HttpError(401, 'missing Authorization header (expected "Bearer <API_KEY>")');
  const m = /^(Bearer|Api-Key)\s+(\S+)\s*$/i.exec(h.trim());
  if (!m) throw new HttpError(401, 'malformed Authorization header (expected "Bearer <API_KEY>")');
  const token = m[2]!;
  if (store.metaTokens.has(token)) throw forbidden("metadata tokens are limited to metadata endpoints");
  const key = store.keys.get(token);
  if (!key) throw new HttpError(401, "invalid or expired API key");
  const user = store.users.get(key.userId);
  if (!user || user.status !== "active") throw new HttpError(401, "API key belongs to an inactive or deleted user");
  return { key, user };
}

export function hasRole(p: Principal, role: Role): boolean {
  return ROLE_RANK[p.user.role] >= ROLE_RANK[role];
}

export function requireRole(p: Principal, role: Role, what: string): void {
  if (!hasRole(p, role)) throw forbidden(`${what} requires the ${role} role or higher`);
}

export function requireAdmin(p: Principal, what: string): void {
  if (p.key.kind !== "api-key" || p.user.role !== "ADMIN") throw forbidden(`${what} requires an admin API key`);
}

/** Embed sessions may only reach workbook endpoints and app config. */
export function requireApiKey(p: Principal): void {
  if (p.key.kind !== "api-key") throw forbidden("embed sessions cannot use this endpoint");
}

export function canSeeDeployment(p: Principal, d: Deployment): boolean {
  return !p.key.deploymentScope || p.key.deploymentScope.includes(d.id);
}

/** Resolves a path deployment id: 404 when missing, 403 when outside the key's scope. */
export function deploymentFor(store: Store, p: Principal, raw: string | undefined): Deployment {
  if (raw === undefined || !/^\d+$/.test(raw)) throw notFound(`deployment ${raw ?? ""} not found`);
  const d = store.deployments.get(Number(raw));
  if (!d) throw notFound(`deployment ${raw} not found`);
  if (!canSeeDeployment(p, d)) throw forbidden(`this API key is not allowed to access deployment ${raw}`);
  return d;
}

const cap = (a: Access, max: Access): Access => (ACCESS_RANK[a] > ACCESS_RANK[max] ? max : a);

/** Access of the caller to a workspace item: explicit or inherited policies, ownership, role caps. */
export function accessTo(store: Store, p: Principal, item: Item): Access {
  if (p.key.kind === "embed-session") {
    if (item.ownerId === p.user.id) return "manage";
    return item.workspace === "shared" ? "read" : "none";
  }
  if (item.workspace === "shared") return p.user.role === "ADMIN" ? "manage" : "read";
  if (p.user.role === "ADMIN") return "manage";
  let acc: Access = "read";
  if (item.ownerId === p.user.id) acc = "manage";
  else {
    let cur: Item | undefined = item;
    const seen = new Set<number>();
    while (cur && !seen.has(cur.id)) {
      seen.add(cur.id);
      const own = cur.policies[String(p.user.id)] ?? cur.policies["*"];
      if (own) {
        acc = own;
        break;
      }
      cur = cur.folderId !== undefined ? store.items.get(cur.folderId) : undefined;
    }
  }
  if (p.user.role === "VIEWER") acc = cap(acc, "read");
  return acc;
}

export function atLeast(a: Access, min: Access): boolean {
  return ACCESS_RANK[a] >= ACCESS_RANK[min];
}

/** Root-level "folder" access: AI BI users may create at the root, viewers may not. */
export function rootAccess(p: Principal): Access {
  return hasRole(p, "AI_BI_USER") ? "edit" : "read";
}

export function folderAccess(store: Store, p: Principal, folderId: number | undefined): Access {
  if (folderId === undefined) return rootAccess(p);
  const f = store.items.get(folderId);
  return f ? accessTo(store, p, f) : "none";
}

/** A short async pause: the access check of the upsert yields to other requests here. */
export function accessCheckPause(): Promise<void> {
  return new Promise((r) => setTimeout(r, 15));
}
