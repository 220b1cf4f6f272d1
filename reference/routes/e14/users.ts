import { type App, HttpError, ok, type Req, type Route } from "../../http.js";
import { e14, type UserAdmin } from "../../e14/state.js";
import type { User } from "../../store.js";
import { listAnswer, readFields, recordsOf } from "./engine.js";
import { resourceDefs } from "./resources.js";

/**
 * E14 user administration: the list with `search` (0.4.0), create, read, update, and the bulk
 * actions DEACTIVATE, ACTIVATE, DELETE with per-user failures; per-user attribute values whose
 * type follows the attribute's.
 */
export const BULK_ACTIONS = ["DEACTIVATE", "ACTIVATE", "DELETE"] as const;
const ROLES = ["ADMIN", "DEVELOPER", "EXPLORER", "VIEWER"] as const;
const USER_FIELDS = { fields: { email: "string", firstName: "string", lastName: "string", role: ROLES }, required: ["email"] } as const;

function admin(app: App, req: Req): void {
  if (!app.b.administersUsers(req.user)) throw new HttpError(403, "user administration needs an admin");
}

function adminOf(app: App, u: User): UserAdmin {
  const s = e14(app.store);
  let a = s.users.get(u.id);
  if (!a) s.users.set(u.id, (a = { status: "active", role: "VIEWER", deleted: false, lastName: null }));
  return a;
}

function userRecord(app: App, u: User) {
  const a = adminOf(app, u);
  return { id: u.id, email: u.email, firstName: u.firstName, lastName: a.lastName, role: a.role, status: a.status };
}

export function liveUser(app: App, raw: string | number): User | undefined {
  const id = typeof raw === "number" ? raw : /^\d+$/.test(raw) ? Number(raw) : NaN;
  const u = app.store.users.find((x) => x.id === id);
  return u && !adminOf(app, u).deleted ? u : undefined;
}

function userOf(app: App, req: Req): User {
  // The table names the user `{id}` under /users and `{userId}` under /user-attribute-values.
  const id = req.params.id ?? req.params.userId;
  const u = liveUser(app, id);
  if (!u) throw new HttpError(404, `user ${id} not found`);
  return u;
}

function applyBulk(app: App, u: User, action: (typeof BULK_ACTIONS)[number]): void {
  const a = adminOf(app, u);
  if (action === "DELETE") a.deleted = true;
  else a.status = action === "ACTIVATE" ? "active" : "deactivated";
}

const attributeDef = resourceDefs.find((d) => d.name === "user-attributes")!;

function attributeValues(app: App, u: User) {
  const attrs = recordsOf(app, attributeDef, {});
  const values = e14(app.store).attributeValues.get(u.id) ?? new Map<string, unknown>();
  return [...values]
    .filter(([id]) => attrs.has(id))
    .map(([id, value]) => ({ attributeId: Number(id), name: attrs.get(id)!.name, type: attrs.get(id)!.type, value }));
}

export const userRoutes: Route[] = [
  {
    operation: "listUsers",
    handler: (req, app) => {
      const term = req.query.get("search");
      const list = app.store.users
        .filter((u) => !adminOf(app, u).deleted)
        .filter((u) => app.b.searchMatches([u.email, u.firstName, adminOf(app, u).lastName], term));
      return listAnswer(
        app,
        list.map((u) => userRecord(app, u)),
        req.query,
      );
    },
  },
  {
    operation: "createUser",
    handler: (req, app) => {
      admin(app, req);
      const f = readFields(USER_FIELDS, req.body, true) as { email: string; firstName?: string; lastName?: string; role?: string };
      if (app.store.users.some((u) => u.email === f.email && !adminOf(app, u).deleted)) throw new HttpError(409, `a user with email ${f.email} exists`);
      const id = Math.max(...app.store.users.map((u) => u.id)) + 1;
      const u: User = { id, email: f.email, firstName: f.firstName ?? null, aiBiUser: true, permissions: new Set(), creatorMode: false, defaultAccess: "read" };
      app.store.users.push(u);
      e14(app.store).users.set(id, { status: "active", role: f.role ?? "VIEWER", deleted: false, lastName: f.lastName ?? null });
      return { status: 201, body: userRecord(app, u) };
    },
  },
  {
    operation: "bulkUserAction",
    handler: (req, app) => {
      admin(app, req);
      const { action, userIds } = req.body ?? {};
      if (!BULK_ACTIONS.includes(action)) throw new HttpError(400, `action must be one of ${BULK_ACTIONS.join(", ")}`);
      // Any integer, as the document declares (no maximum): one past 2^53 names no user, a per-user 404.
      if (!Array.isArray(userIds) || userIds.length === 0 || !userIds.every((x: unknown) => Number.isInteger(x)))
        throw new HttpError(400, "userIds must be a non-empty array of integers");
      const ids = [...new Set<number>(userIds)];
      const failed: { userId: number; error: { status: number; message: string } }[] = [];
      for (const id of ids) if (!liveUser(app, id)) failed.push({ userId: id, error: { status: 404, message: `user ${id} not found` } });
      const succeeded: number[] = [];
      for (const id of ids) {
        const u = liveUser(app, id);
        if (!u) continue;
        if (u.id === req.user.id && action !== "ACTIVATE") {
          failed.push({ userId: id, error: { status: 400, message: "a caller cannot deactivate or delete itself" } });
          continue;
        }
        applyBulk(app, u, action);
        succeeded.push(id);
      }
      return ok({ action, succeeded, failed });
    },
  },
  { operation: "getUser", handler: (req, app) => ok(userRecord(app, userOf(app, req))) },
  {
    operation: "updateUser",
    handler: (req, app) => {
      admin(app, req);
      const u = userOf(app, req);
      const f = readFields(USER_FIELDS, req.body, false) as { email?: string; firstName?: string; lastName?: string; role?: string };
      if (f.email !== undefined) u.email = f.email;
      if (f.firstName !== undefined) u.firstName = f.firstName;
      const a = adminOf(app, u);
      if (f.lastName !== undefined) a.lastName = f.lastName;
      if (f.role !== undefined) a.role = f.role;
      return ok(userRecord(app, u));
    },
  },
  {
    operation: "getUserAttributeValues",
    handler: (req, app) => listAnswer(app, attributeValues(app, userOf(app, req)), req.query),
  },
  {
    operation: "setUserAttributeValues",
    handler: (req, app) => {
      admin(app, req);
      const u = userOf(app, req);
      const values = req.body?.values;
      if (!Array.isArray(values)) throw new HttpError(400, "values must be an array of {attributeId, value}");
      const attrs = recordsOf(app, attributeDef, {});
      for (const v of values) {
        const attr = attrs.get(String(v?.attributeId));
        if (!attr) throw new HttpError(404, `user attribute ${v?.attributeId} not found`);
        if (!app.b.attributeValueFits(attr.type, v.value)) throw new HttpError(400, `the value of ${attr.name} must be a ${attr.type}`);
      }
      const store = e14(app.store).attributeValues;
      if (!store.has(u.id)) store.set(u.id, new Map());
      for (const v of values) store.get(u.id)!.set(String(v.attributeId), v.value);
      return listAnswer(app, attributeValues(app, u), new URLSearchParams());
    },
  },
];
