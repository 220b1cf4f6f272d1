import type { FastifyInstance } from "fastify";
import type { RouteOpts } from "../app.js";
import { caller, deployment, findItem, hasAccess } from "../access.js";
import { paginate } from "../pagination.js";
import { STD_ERRORS, cursorQuery as cq, errorResponses, nul, params, ref } from "../schemas.js";
import { forbidden, iso } from "../util.js";
import { workbookOut } from "../serialize.js";
import { cloneWorkbook, upsertBySlug, type UpsertBody } from "../workspace-ops.js";

const P = "/api/v1/deployments/:deploymentId/workbooks";

export async function workbookRoutes(app: FastifyInstance, { store: s }: RouteOpts): Promise<void> {
  app.get(
    P,
    {
      schema: {
        tags: ["workbooks"],
        summary: "E8 List workbooks",
        params: params(["deploymentId"]),
        querystring: {
          type: "object",
          properties: {
            folderId: { type: nul("integer"), minimum: 0, description: "Containing folder; 0, null or empty = workspace root" },
            ...cq,
          },
        },
        response: {
          200: {
            type: "object",
            required: ["items", "data"],
            description: "WorkbooksListResponse",
            properties: {
              items: { type: "array", items: ref("Workbook") },
              data: { type: "array", items: ref("Workbook"), deprecated: true },
              count: { type: nul("integer"), minimum: 0, deprecated: true },
              pageInfo: { anyOf: [ref("PageInfo"), { type: "null" }] },
            },
          },
          ...errorResponses(400, 404, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const { deploymentId } = req.params as { deploymentId: number };
      const q = req.query as { folderId?: number | null; first?: number; after?: string };
      const d = deployment(s, deploymentId);
      const c = caller(req);
      const filter = "folderId" in q ? (q.folderId === 0 ? null : (q.folderId ?? null)) : undefined;
      const all = [...s.items.values()]
        .filter((i) => i.deploymentId === d.id && i.workspace === c.workspace && i.type === "WORKBOOK")
        .filter((i) => filter === undefined || i.folderId === filter)
        .filter((i) => hasAccess(s, c, i, "read"))
        .sort((a, b) => a.id - b.id);
      const p = paginate(all, { first: q.first, after: q.after }, `workbooks:${d.id}:${c.user.id}:${String(filter)}`, true);
      const items = p.items.map((i) => workbookOut(s, c, i));
      return { items, data: items, count: p.total, pageInfo: p.pageInfo };
    },
  );

  app.get(
    `${P}/:workbookId`,
    {
      schema: {
        tags: ["workbooks"],
        summary: "E9 Get a workbook",
        params: params(["deploymentId", "workbookId"]),
        response: { 200: ref("Workbook"), ...errorResponses(404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const { deploymentId, workbookId } = req.params as { deploymentId: number; workbookId: number };
      const d = deployment(s, deploymentId);
      const c = caller(req);
      const it = findItem(s, c, d.id, workbookId, "WORKBOOK");
      if (!hasAccess(s, c, it, "read")) throw forbidden("No read access to this workbook");
      s.viewHistory.set(`${c.user.id}:${it.id}`, iso());
      return workbookOut(s, c, it);
    },
  );

  app.post(
    `${P}/:workbookId/duplicate`,
    {
      schema: {
        tags: ["workbooks"],
        summary: "E10 Clone a workbook",
        params: params(["deploymentId", "workbookId"]),
        body: {
          type: "object",
          properties: {
            shared: { type: "boolean", default: false, description: "Creator-mode embed sessions only: clone a published dashboard of the shared workspace" },
          },
        },
        response: { 200: ref("Workbook"), ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const { deploymentId, workbookId } = req.params as { deploymentId: number; workbookId: number };
      const d = deployment(s, deploymentId);
      const c = caller(req);
      const wb = cloneWorkbook(s, c, d, workbookId, (req.body as { shared: boolean }).shared);
      s.addAudit("Workbook created", c.user.id, { workbookId: wb.id, clonedFrom: workbookId });
      return workbookOut(s, c, wb);
    },
  );

  app.put(
    `${P}/by-slug/:slug`,
    {
      schema: {
        tags: ["workbooks"],
        summary: "E11 Create or update a workbook by slug (slug trimmed and lowercased)",
        params: params(["deploymentId"], ["slug"]),
        body: {
          type: "object",
          additionalProperties: false,
          properties: {
            name: { type: "string", minLength: 1, maxLength: 255, description: "Defaults to the normalized slug on create" },
            folderId: { type: nul("integer"), minimum: 1, description: "Destination folder; null = root. Requires manage access on update." },
            meta: {
              type: "object",
              additionalProperties: true,
              properties: { dashboardDraft: { anyOf: [ref("DashboardConfig"), { type: "null" }] } },
              description: "Merged key by key into existing metadata; meta.dashboardDraft is stored as the dashboard draft",
            },
          },
        },
        response: { 200: ref("Workbook"), ...errorResponses(400, 404, 409, ...STD_ERRORS) },
      },
    },
    async (req, reply) => {
      const { deploymentId, slug } = req.params as { deploymentId: number; slug: string };
      const d = deployment(s, deploymentId);
      const c = caller(req);
      const { item, result } = await upsertBySlug(s, c, d, slug, req.body as UpsertBody, s.upsertRaceMs);
      if (result === "created") s.addAudit("Workbook created", c.user.id, { workbookId: item.id, slug: item.slug });
      reply.header("x-upsert-result", result);
      return workbookOut(s, c, item);
    },
  );
}
