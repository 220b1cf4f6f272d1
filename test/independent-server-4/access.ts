import type { FastifyRequest } from "fastify";
import type { Store } from "./store.js";
import { ACCESS_RANK, ROLE_RANK, type Access, type ApiKey, type Item, type Role, type User } from "./types.js";
import { HttpError, forbidden, notFound } from "./util.js";
import { MAIN, embedWorkspace } from "./seed-workspace.js";

export interface Caller {
  key: ApiKey;
  user: User;
  workspace: string;
}

export function caller(req: FastifyRequest): Caller {
  const c = (req as FastifyRequest & { caller?: Caller }).caller;
  if (!c) throw new HttpError(401, "Missing bearer token", "unauthorized");
  return c;
}

export function makeCaller(key: ApiKey, user: User): Caller {
  return { key, user, workspace: key.creatorMode && key.embedTenantId ? embedWorkspace(key.embedTenantId) : MAIN };
}

export function requireRole(c: Caller, role: Role, what: string): void {
  if (ROLE_RANK[c.user.role] < ROLE_RANK[role]) throw forbidden(`${what} requires the ${role} role or higher`);
}

export function requirePermission(c: Caller, perm: string): void {
  if (!c.key.permissions.includes(perm)) throw forbidden(`Permission ${perm} required`);
}

export function deployment(s: Store, id: number) {
  const d = s.deployments.get(id);
  if (!d) throw notFound(`Deployment ${id}`);
  return d;
}

function defaultAccess(role: Role): Access {
  return role === "admin" ? "manage" : role === "developer" ? "edit" : "read";
}

/** Effective access: admin/owner manage; else nearest explicit policy on the item or its ancestors; else role default. */
export function accessTo(s: Store, c: Caller, item: Item | null): Access {
  if (c.user.role === "admin") return "manage";
  if (!item) return ROLE_RANK[c.user.role] >= ROLE_RANK["ai-bi-user"] ? "edit" : "read"; // workspace root
  if (item.ownerId === c.user.id) return "manage";
  let node: Item | undefined = item;
  const guard = new Set<number>();
  while (node && !guard.has(node.id)) {
    guard.add(node.id);
    const hits = node.policies.filter((p) => p.userId === c.user.id || (p.groupId !== undefined && c.user.groupIds.includes(p.groupId)));
    const userHit = hits.find((p) => p.userId === c.user.id);
    if (userHit) return userHit.action;
    if (hits.length) return hits.reduce<Access>((a, p) => (ACCESS_RANK[p.action] > ACCESS_RANK[a] ? p.action : a), "none");
    node = node.folderId !== null ? s.items.get(node.folderId) : undefined;
  }
  return defaultAccess(c.user.role);
}

export function hasAccess(s: Store, c: Caller, item: Item | null, need: Access): boolean {
  return ACCESS_RANK[accessTo(s, c, item)] >= ACCESS_RANK[need];
}

/** Finds a workspace item of the caller's workspace in a deployment (404 otherwise). */
export function findItem(s: Store, c: Caller, deploymentId: number, id: number, type?: Item["type"], workspace = c.workspace): Item {
  const it = s.items.get(id);
  if (!it || it.deploymentId !== deploymentId || it.workspace !== workspace || (type && it.type !== type)) {
    throw notFound(`${type ? type.charAt(0) + type.slice(1).toLowerCase() : "Item"} ${id}`);
  }
  return it;
}
