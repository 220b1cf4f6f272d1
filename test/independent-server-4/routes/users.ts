import type { FastifyInstance } from "fastify";
import type { RouteOpts } from "../app.js";
import type { User } from "../types.js";
import { caller, requireRole } from "../access.js";
import { crud } from "../crud.js";
import { cursorEnvelope, paginate } from "../pagination.js";
import { STD_ERRORS, cursorListResponse, cursorQuery as cq, dataOf, errorResponses, nul, params } from "../schemas.js";
import { HttpError, badRequest, iso, notFound } from "../util.js";

const ROLES = ["viewer", "ai-bi-user", "developer", "admin"];
const userSchema = {
  type: "object",
  required: ["id", "email", "role", "status"],
  properties: {
    id: { type: "integer" },
    email: { type: "string" },
    firstName: { type: nul("string") },
    lastName: { type: nul("string") },
    picture: { type: nul("string") },
    role: { type: "string", enum: ROLES },
    status: { type: "string", enum: ["active", "inactive"] },
    groupIds: { type: "array", items: { type: "integer" } },
    createdAt: { type: "string", format: "date-time" },
  },
};
const writable = {
  firstName: { type: nul("string") },
  lastName: { type: nul("string") },
  picture: { type: nul("string") },
  role: { type: "string", enum: ROLES },
  status: { type: "string", enum: ["active", "inactive"] },
  groupIds: { type: "array", items: { type: "integer" } },
};
const ATTR_TYPES = ["string", "number", "boolean", "string_array", "number_array"];

function valueMatches(type: string, v: unknown): boolean {
  switch (type) {
    case "string":
      return typeof v === "string";
    case "number":
      return typeof v === "number";
    case "boolean":
      return typeof v === "boolean";
    case "string_array":
      return Array.isArray(v) && v.every((x) => typeof x === "string");
    default:
      return Array.isArray(v) && v.every((x) => typeof x === "number");
  }
}

export async function userRoutes(app: FastifyInstance, { store: s }: RouteOpts): Promise<void> {
  const getUser = (id: number): User => {
    const u = s.users.get(id);
    if (!u) throw notFound(`User ${id}`);
    return u;
  };
  const checkGroups = (ids?: number[]) => {
    for (const g of ids ?? []) if (!s.groups.has(g)) throw badRequest(`Group ${g} does not exist`, "invalid_group");
  };

  app.get(
    "/api/v1/users",
    {
      schema: {
        tags: ["users"],
        summary: "List users (search over email and names)",
        querystring: { type: "object", properties: { search: { type: "string" }, status: { type: "string", enum: ["active", "inactive"] }, ...cq } },
        response: { 200: cursorListResponse(userSchema), ...errorResponses(400, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const q = req.query as { search?: string; status?: string; first?: number; after?: string };
      const needle = q.search?.toLowerCase();
      const list = [...s.users.values()]
        .filter((u) => !q.status || u.status === q.status)
        .filter((u) => !needle || `${u.email} ${u.firstName ?? ""} ${u.lastName ?? ""}`.toLowerCase().includes(needle))
        .sort((a, b) => a.id - b.id);
      return cursorEnvelope(paginate(list, q, `users:${q.search ?? ""}:${q.status ?? ""}`, true));
    },
  );

  app.post(
    "/api/v1/users",
    {
      schema: {
        tags: ["users"],
        summary: "Invite a user",
        body: {
          type: "object",
          required: ["email"],
          additionalProperties: false,
          properties: { email: { type: "string", format: "email" }, ...writable, role: { type: "string", enum: ROLES, default: "viewer" } },
        },
        response: { 201: dataOf(userSchema), ...errorResponses(409, ...STD_ERRORS) },
      },
    },
    async (req, reply) => {
      const c = caller(req);
      requireRole(c, "admin", "User administration");
      const b = req.body as Partial<User> & { email: string };
      if ([...s.users.values()].some((u) => u.email.toLowerCase() === b.email.toLowerCase()))
        throw new HttpError(409, `User ${b.email} already exists`, "conflict");
      checkGroups(b.groupIds);
      const id = Math.max(...s.users.keys()) + 1;
      const u: User = {
        id,
        email: b.email.toLowerCase(),
        firstName: b.firstName ?? null,
        lastName: b.lastName ?? null,
        picture: b.picture ?? null,
        role: b.role ?? "viewer",
        status: b.status ?? "active",
        groupIds: b.groupIds ?? [],
        createdAt: iso(),
      };
      s.users.set(id, u);
      s.addAudit("User invited", c.user.id, { invited: u.email });
      return reply.code(201).header("location", `/api/v1/users/${id}`).send({ data: u });
    },
  );

  app.get(
    "/api/v1/users/:id",
    {
      schema: { tags: ["users"], summary: "Get a user", params: params(["id"]), response: { 200: dataOf(userSchema), ...errorResponses(404, ...STD_ERRORS) } },
    },
    async (req) => ({ data: getUser((req.params as { id: number }).id) }),
  );

  app.put(
    "/api/v1/users/:id",
    {
      schema: {
        tags: ["users"],
        summary: "Update a user (partial)",
        params: params(["id"]),
        body: { type: "object", additionalProperties: false, properties: writable },
        response: { 200: dataOf(userSchema), ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      requireRole(caller(req), "admin", "User administration");
      const u = getUser((req.params as { id: number }).id);
      const b = req.body as Partial<User>;
      checkGroups(b.groupIds);
      Object.assign(u, b);
      return { data: u };
    },
  );

  app.post(
    "/api/v1/users/bulk",
    {
      schema: {
        tags: ["users"],
        summary: "Bulk DEACTIVATE / ACTIVATE / DELETE with per-user failures",
        body: {
          type: "object",
          required: ["action", "userIds"],
          properties: {
            action: { type: "string", enum: ["DEACTIVATE", "ACTIVATE", "DELETE"] },
            userIds: { type: "array", minItems: 1, maxItems: 100, items: { type: "integer" } },
          },
        },
        response: {
          200: {
            type: "object",
            required: ["succeeded", "failed"],
            properties: {
              succeeded: { type: "array", items: { type: "integer" } },
              failed: {
                type: "array",
                items: {
                  type: "object",
                  properties: { id: { type: "integer" }, error: { type: "object", properties: { message: { type: "string" }, status: { type: "integer" } } } },
                },
              },
            },
          },
          ...errorResponses(...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const c = caller(req);
      requireRole(c, "admin", "User administration");
      const b = req.body as { action: string; userIds: number[] };
      const succeeded: number[] = [];
      const failed: unknown[] = [];
      for (const id of [...new Set(b.userIds)]) {
        const u = s.users.get(id);
        if (!u) {
          failed.push({ id, error: { message: `User ${id} not found`, status: 404 } });
          continue;
        }
        if (id === c.user.id && b.action !== "ACTIVATE") {
          failed.push({ id, error: { message: "You cannot deactivate or delete yourself", status: 400 } });
          continue;
        }
        if (b.action === "DELETE") s.users.delete(id);
        else u.status = b.action === "ACTIVATE" ? "active" : "inactive";
        succeeded.push(id);
      }
      return { succeeded, failed };
    },
  );

  app.get(
    "/api/v1/groups",
    {
      schema: {
        tags: ["users"],
        summary: "List groups (search over name)",
        querystring: { type: "object", properties: { search: { type: "string" }, ...cq } },
        response: {
          200: cursorListResponse({
            type: "object",
            properties: {
              id: { type: "integer" },
              name: { type: "string" },
              description: { type: nul("string") },
              createdAt: { type: "string" },
              memberCount: { type: "integer" },
            },
          }),
          ...errorResponses(400, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const q = req.query as { search?: string; first?: number; after?: string };
      const list = [...s.groups.values()]
        .filter((g) => !q.search || g.name.toLowerCase().includes(q.search.toLowerCase()))
        .map((g) => ({ ...g, memberCount: [...s.users.values()].filter((u) => u.groupIds.includes(g.id)).length }));
      return cursorEnvelope(paginate(list, q, `groups:${q.search ?? ""}`, true));
    },
  );

  crud(app, s, {
    base: "/api/v1/user-attributes",
    idParam: "attributeId",
    coll: "user-attributes",
    tag: "users",
    noun: "user attribute",
    updateMethod: "PUT",
    searchFields: ["name"],
    props: {
      name: { type: "string", pattern: "^[a-zA-Z_][a-zA-Z0-9_]*$" },
      type: { type: "string", enum: ATTR_TYPES },
      description: { type: nul("string") },
      defaultValue: {},
    },
    required: ["name", "type"],
  });

  const valuesSchema = {
    type: "object",
    properties: {
      data: {
        type: "array",
        items: {
          type: "object",
          properties: {
            userId: { type: "integer" },
            attributeId: { type: "string" },
            name: { type: "string" },
            type: { type: "string" },
            value: {},
          },
        },
      },
    },
  };
  const valuesOf = (userId: number) => ({ data: [...s.collection("user-attribute-values").values()].filter((v) => v.userId === userId) });
  app.get(
    "/api/v1/user-attribute-values/:userId",
    {
      schema: {
        tags: ["users"],
        summary: "Attribute values of a user",
        params: params(["userId"]),
        response: { 200: valuesSchema, ...errorResponses(404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const u = getUser((req.params as { userId: number }).userId);
      return valuesOf(u.id);
    },
  );
  app.put(
    "/api/v1/user-attribute-values/:userId/:attributeId",
    {
      schema: {
        tags: ["users"],
        summary: "Set one attribute value of a user (value must match the attribute type; null clears)",
        params: params(["userId"], ["attributeId"]),
        body: { type: "object", required: ["value"], properties: { value: {} } },
        response: { 200: valuesSchema, ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      requireRole(caller(req), "admin", "User attribute administration");
      const { userId, attributeId } = req.params as { userId: number; attributeId: string };
      const u = getUser(userId);
      const attr = s.collection("user-attributes").get(attributeId);
      if (!attr) throw notFound(`User attribute ${attributeId}`);
      const value = (req.body as { value: unknown }).value;
      const key = `${u.id}:${attr.id}`;
      if (value === null) s.collection("user-attribute-values").delete(key);
      else {
        if (!valueMatches(String(attr.type), value)) throw badRequest(`Value does not match attribute type ${String(attr.type)}`, "type_mismatch");
        s.collection("user-attribute-values").set(key, { id: key, userId: u.id, attributeId: attr.id, name: attr.name, type: attr.type, value });
      }
      return valuesOf(u.id);
    },
  );
}
