import type { FastifyInstance, FastifyRequest } from "fastify";
import type { RouteOpts } from "../app.js";
import type { Store } from "../store.js";
import { caller, hasAccess } from "../access.js";
import { crud } from "../crud.js";
import { STD_ERRORS, dataOf, errorResponses, nul, params, ref } from "../schemas.js";
import { HttpError, badRequest, forbidden, iso, notFound } from "../util.js";
import { dashboardOut } from "../serialize.js";

const tenantExists = (s: Store, req: FastifyRequest) => {
  const p = req.params as { tenantId: string; groupId?: string };
  if (!s.collection("embed-tenants").has(p.tenantId)) throw notFound(`Embed tenant ${p.tenantId}`);
  if (p.groupId) {
    const g = s.collection("embed-groups").get(p.groupId);
    if (!g || g.tenantId !== p.tenantId) throw notFound(`Embed group ${p.groupId}`);
  }
};
const filterSchema = {
  type: "object",
  required: ["member", "operator"],
  properties: {
    member: { type: "string" },
    operator: { type: "string", enum: ["equals", "notEquals", "contains", "gt", "lt", "inDateRange", "is_empty", "is_not_empty"] },
    values: { type: "array", items: { type: "string" } },
  },
};

export async function embedRoutes(app: FastifyInstance, { store: s }: RouteOpts): Promise<void> {
  const dashByPublicId = (req: FastifyRequest) => {
    const id = (req.params as { publicId: string }).publicId;
    const d = [...s.dashboards.values()].find((x) => x.publicId === id);
    if (!d) throw notFound(`Dashboard ${id}`);
    return d;
  };

  app.patch(
    "/api/v1/embed/dashboard/:publicId",
    {
      schema: {
        tags: ["embedding"],
        summary: "Enable or disable signed embedding of a published dashboard",
        params: params([], ["publicId"]),
        body: { type: "object", required: ["allowEmbed"], properties: { allowEmbed: { type: "boolean" } } },
        response: { 200: dataOf(ref("Dashboard")), ...errorResponses(404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const d = dashByPublicId(req);
      const c = caller(req);
      const wb = s.items.get(d.workbookId);
      if (!wb || !hasAccess(s, c, wb, "manage")) throw forbidden("Manage access to the workbook is required");
      d.allowEmbed = (req.body as { allowEmbed: boolean }).allowEmbed;
      return { data: dashboardOut(d) };
    },
  );

  app.post(
    "/api/v1/embed/dashboard/:publicId/python-run",
    {
      schema: {
        tags: ["embedding"],
        summary: "Run a Python report of the dashboard with dashboard filters",
        params: params([], ["publicId"]),
        body: {
          type: "object",
          required: ["reportId"],
          properties: { reportId: { type: "integer" }, filters: { type: "array", items: filterSchema, default: [] } },
        },
        response: {
          200: dataOf({
            type: "object",
            properties: {
              runId: { type: "string" },
              status: { type: "string" },
              reportId: { type: "integer" },
              output: { type: nul("string") },
              appliedFilters: { type: "array", items: filterSchema },
              durationMs: { type: "integer" },
              finishedAt: { type: "string" },
            },
          }),
          ...errorResponses(400, 404, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const d = dashByPublicId(req);
      const b = req.body as { reportId: number; filters: unknown[] };
      if (d.status !== "published") throw badRequest("Dashboard is not published", "not_published");
      const snap = d.reportSnapshots.find((r) => r.reportId === b.reportId);
      if (!snap) throw notFound(`Report ${b.reportId} in this dashboard`);
      if (snap.kind !== "html" && !snap.pythonCode) throw badRequest("Report is not a Python report", "not_python");
      return {
        data: {
          runId: `${d.publicId}:${b.reportId}:${Date.now()}`,
          status: "succeeded",
          reportId: b.reportId,
          output: "<table><tr><td>42</td></tr></table>",
          appliedFilters: b.filters,
          durationMs: 120,
          finishedAt: iso(),
        },
      };
    },
  );

  const T = "/api/v1/embed-tenants";
  crud(app, s, {
    base: T,
    idParam: "tenantId",
    coll: "embed-tenants",
    tag: "embed-tenants",
    noun: "embed tenant",
    searchFields: ["name", "externalId"],
    props: { name: { type: "string", minLength: 1 }, externalId: { type: "string", minLength: 1 }, creatorMode: { type: "boolean" } },
    required: ["name"],
    readRole: "developer",
  });
  crud(app, s, {
    base: `${T}/:tenantId/users`,
    idParam: "userId",
    coll: "embed-users",
    tag: "embed-tenants",
    noun: "embed user",
    parents: { tenantId: "tenantId" },
    check: tenantExists,
    searchFields: ["email", "externalId"],
    readRole: "developer",
    props: {
      externalId: { type: "string", minLength: 1 },
      email: { type: "string", format: "email" },
      attributes: { type: "object", additionalProperties: true },
    },
    required: ["externalId"],
  });
  crud(app, s, {
    base: `${T}/:tenantId/groups`,
    idParam: "groupId",
    coll: "embed-groups",
    tag: "embed-tenants",
    noun: "embed group",
    parents: { tenantId: "tenantId" },
    check: tenantExists,
    searchFields: ["name"],
    readRole: "developer",
    props: { name: { type: "string", minLength: 1 }, description: { type: nul("string") } },
    required: ["name"],
    onCreate: (rec) => {
      rec.memberIds = [];
    },
  });

  const M = `${T}/:tenantId/groups/:groupId/members`;
  const memberParams = params([], ["tenantId", "groupId"]);
  const members = { type: "object", properties: { data: { type: "array", items: { type: "object", additionalProperties: true } } } };
  const group = (req: FastifyRequest) => {
    tenantExists(s, req);
    return s.collection("embed-groups").get((req.params as { groupId: string }).groupId)!;
  };
  const out = (ids: unknown) => ({ data: (ids as string[]).map((id) => s.collection("embed-users").get(id)).filter(Boolean) });
  app.get(
    M,
    {
      schema: {
        tags: ["embed-tenants"],
        summary: "List group members",
        params: memberParams,
        response: { 200: members, ...errorResponses(404, ...STD_ERRORS) },
      },
    },
    async (req) => out(group(req).memberIds),
  );
  app.post(
    M,
    {
      schema: {
        tags: ["embed-tenants"],
        summary: "Add a user to a group",
        params: memberParams,
        body: { type: "object", required: ["userId"], properties: { userId: { type: "string" } } },
        response: { 200: members, ...errorResponses(404, 409, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const g = group(req);
      const uid = (req.body as { userId: string }).userId;
      const u = s.collection("embed-users").get(uid);
      if (!u || u.tenantId !== g.tenantId) throw notFound(`Embed user ${uid}`);
      const ids = g.memberIds as string[];
      if (ids.includes(uid)) throw new HttpError(409, "User is already a member", "conflict");
      ids.push(uid);
      return out(ids);
    },
  );
  app.delete(
    `${M}/:userId`,
    {
      schema: {
        tags: ["embed-tenants"],
        summary: "Remove a user from a group",
        params: params([], ["tenantId", "groupId", "userId"]),
        response: { 204: { type: "null", description: "Removed" }, ...errorResponses(404, ...STD_ERRORS) },
      },
    },
    async (req, reply) => {
      const g = group(req);
      const uid = (req.params as { userId: string }).userId;
      const ids = g.memberIds as string[];
      if (!ids.includes(uid)) throw notFound(`Member ${uid}`);
      g.memberIds = ids.filter((x) => x !== uid);
      return reply.code(204).send();
    },
  );
}
