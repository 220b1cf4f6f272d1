// User administration (list/create/get/update/bulk) and user attributes with per-user values.
import { requireAdmin } from "./auth.js";
import type { AppRouter, Call } from "./ctx.js";
import { conflict, created, fEnum, fStr, invalid, isObj, notFound, objBody, ok, wrap } from "./http.js";
import type { Json, Reply } from "./http.js";
import { listBody, noOffset } from "./paging.js";
import { userJson } from "./serialize.js";
import { ROLES } from "./store.js";
import type { Store, User, UserAttribute } from "./store.js";

export const BULK_ACTIONS = ["DEACTIVATE", "ACTIVATE", "DELETE"] as const;
export const ATTR_TYPES = ["string", "number", "boolean", "string_array", "number_array"] as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function userOr404(store: Store, raw: string | undefined): User {
  const u = raw !== undefined && /^\d+$/.test(raw) ? store.users.get(Number(raw)) : undefined;
  if (!u || u.embed) throw notFound(`user ${raw ?? ""} not found`);
  return u;
}

function optName(b: Json, k: string): string | undefined | null {
  const v = b[k];
  if (v === undefined || v === null) return v as undefined | null;
  if (typeof v !== "string") throw invalid(`${k} must be a string or null`);
  return v;
}

function permissions(b: Json): string[] | undefined {
  const v = b["permissions"];
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) throw invalid("permissions must be an array of strings");
  return [...new Set(v as string[])];
}

function listUsers(c: Call): Reply {
  requireAdmin(c.p, "user administration");
  noOffset(c.q);
  const s = (c.q.get("search") ?? "").trim().toLowerCase();
  const all = [...c.store.users.values()]
    .filter((u) => !u.embed)
    .filter((u) => !s || [u.email, u.firstName ?? "", u.lastName ?? ""].join(" ").toLowerCase().includes(s))
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id - a.id))
    .map(userJson);
  return ok(listBody(all, c.q, `users:${s}`));
}

function createUser(c: Call): Reply {
  requireAdmin(c.p, "user administration");
  const b = objBody(c.body);
  const email = fStr(b, "email", true)!.trim().toLowerCase();
  if (!EMAIL.test(email)) throw invalid("email must be a valid email address");
  const role = fEnum(b, "role", ROLES, false) ?? "VIEWER";
  const firstName = optName(b, "firstName") ?? undefined;
  const lastName = optName(b, "lastName") ?? undefined;
  const perms = permissions(b) ?? [];
  if ([...c.store.users.values()].some((u) => u.email === email)) throw conflict(`a user with email ${email} already exists`, "user_exists");
  const id = c.store.ids.user.take();
  const u: User = { id, email, firstName, lastName, role, permissions: perms, status: "active", createdAt: new Date().toISOString() };
  c.store.users.set(id, u);
  return created(userJson(u), `/api/v1/users/${id}`);
}

function getUser(c: Call): Reply {
  requireAdmin(c.p, "user administration");
  return wrap(userJson(userOr404(c.store, c.params["id"])));
}

function updateUser(c: Call): Reply {
  requireAdmin(c.p, "user administration");
  const u = userOr404(c.store, c.params["id"]);
  const b = objBody(c.body);
  const email = fStr(b, "email", false);
  const role = fEnum(b, "role", ROLES, false);
  const firstName = optName(b, "firstName");
  const lastName = optName(b, "lastName");
  const perms = permissions(b);
  let norm: string | undefined;
  if (email !== undefined) {
    norm = email.trim().toLowerCase();
    if (!EMAIL.test(norm)) throw invalid("email must be a valid email address");
    if ([...c.store.users.values()].some((x) => x.email === norm && x.id !== u.id)) throw conflict(`a user with email ${norm} already exists`, "user_exists");
  }
  if (norm !== undefined) u.email = norm;
  if (role) u.role = role;
  if (firstName !== undefined) u.firstName = firstName ?? undefined;
  if (lastName !== undefined) u.lastName = lastName ?? undefined;
  if (perms) u.permissions = perms;
  return wrap(userJson(u));
}

function bulkUsers(c: Call): Reply {
  requireAdmin(c.p, "user administration");
  const b = objBody(c.body);
  const action = fEnum(b, "action", BULK_ACTIONS, true)!;
  const ids = b["userIds"];
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 100) throw invalid("userIds must be an array of 1..100 integers");
  if (!ids.every((x) => typeof x === "number" && Number.isInteger(x))) throw invalid("userIds must hold integers only");
  const succeeded: number[] = [];
  const failed: Json[] = [];
  for (const id of [...new Set(ids as number[])]) {
    const u = c.store.users.get(id);
    if (!u || u.embed) {
      failed.push({ id, error: { status: 404, message: `user ${id} not found` } });
      continue;
    }
    if (u.id === c.p.user.id && action !== "ACTIVATE") {
      failed.push({ id, error: { status: 400, message: "you cannot deactivate or delete yourself" } });
      continue;
    }
    if (action === "DELETE") {
      c.store.users.delete(id);
      for (const [t, k] of [...c.store.keys]) if (k.userId === id) c.store.keys.delete(t);
    } else u.status = action === "ACTIVATE" ? "active" : "deactivated";
    succeeded.push(id);
  }
  return ok({ action, succeeded, failed });
}

function attrJson(a: UserAttribute): Json {
  const o: Json = { id: a.id, name: a.name, type: a.type, createdAt: a.createdAt };
  if (a.description !== undefined) o["description"] = a.description;
  return o;
}

function listAttrs(c: Call): Reply {
  requireAdmin(c.p, "user attributes");
  noOffset(c.q);
  const all = [...c.store.attributes].sort((a, b) => (a.name < b.name ? 1 : -1)).map(attrJson);
  return ok(listBody(all, c.q, "user-attributes"));
}

function createAttr(c: Call): Reply {
  requireAdmin(c.p, "user attributes");
  const b = objBody(c.body);
  const name = fStr(b, "name", true)!;
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name)) throw invalid("name must match ^[A-Za-z_][A-Za-z0-9_]{0,63}$");
  const type = fEnum(b, "type", ATTR_TYPES, true)!;
  const description = fStr(b, "description", false);
  if (c.store.attributes.some((a) => a.name === name)) throw conflict(`user attribute ${name} already exists`, "attribute_exists");
  const a: UserAttribute = { id: c.store.ids.attr.take(), name, type, description, createdAt: new Date().toISOString(), values: new Map() };
  c.store.attributes.push(a);
  return created(attrJson(a), `/api/v1/user-attributes/${a.id}`);
}

function getAttr(c: Call): Reply {
  requireAdmin(c.p, "user attributes");
  const raw = c.params["attributeId"] ?? "";
  const a = c.store.attributes.find((x) => String(x.id) === raw);
  if (!a) throw notFound(`user attribute ${raw} not found`);
  return wrap(attrJson(a));
}

function typeOk(t: UserAttribute["type"], v: unknown): boolean {
  switch (t) {
    case "string":
      return typeof v === "string";
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "boolean":
      return typeof v === "boolean";
    case "string_array":
      return Array.isArray(v) && v.every((x) => typeof x === "string");
    case "number_array":
      return Array.isArray(v) && v.every((x) => typeof x === "number" && Number.isFinite(x));
  }
}

function valuesJson(c: Call, u: User): Json {
  const values: Json = {};
  for (const a of c.store.attributes) if (a.values.has(u.id)) values[a.name] = a.values.get(u.id);
  return { userId: u.id, values };
}

function getValues(c: Call): Reply {
  requireAdmin(c.p, "user attributes");
  return wrap(valuesJson(c, userOr404(c.store, c.params["userId"])));
}

function putValues(c: Call): Reply {
  requireAdmin(c.p, "user attributes");
  const u = userOr404(c.store, c.params["userId"]);
  const b = objBody(c.body);
  const values = b["values"];
  if (!isObj(values)) throw invalid("values must be an object mapping attribute names to values (null removes a value)");
  const plan: Array<[UserAttribute, unknown]> = [];
  for (const [name, v] of Object.entries(values)) {
    const a = c.store.attributes.find((x) => x.name === name);
    if (!a) throw invalid(`unknown user attribute ${name}`);
    if (v !== null && !typeOk(a.type, v)) throw invalid(`value of ${name} must be of type ${a.type}`);
    plan.push([a, v]);
  }
  for (const [a, v] of plan) {
    if (v === null) a.values.delete(u.id);
    else a.values.set(u.id, v);
  }
  return wrap(valuesJson(c, u));
}

export function registerUsers(r: AppRouter): void {
  r.add("GET", "/api/v1/users", listUsers);
  r.add("POST", "/api/v1/users", createUser);
  r.add("POST", "/api/v1/users/bulk", bulkUsers);
  r.add("GET", "/api/v1/users/{id}", getUser);
  r.add("PUT", "/api/v1/users/{id}", updateUser);
  r.add("GET", "/api/v1/user-attributes", listAttrs);
  r.add("POST", "/api/v1/user-attributes", createAttr);
  r.add("GET", "/api/v1/user-attributes/{attributeId}", getAttr);
  r.add("GET", "/api/v1/user-attribute-values/{userId}", getValues);
  r.add("PUT", "/api/v1/user-attribute-values/{userId}", putValues);
}
