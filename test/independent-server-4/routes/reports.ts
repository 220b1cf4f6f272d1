import type { FastifyInstance } from "fastify";
import type { RouteOpts } from "../app.js";
import type { Item, Placement } from "../types.js";
import { caller, deployment, findItem, hasAccess, requireRole } from "../access.js";
import { cursorEnvelope, paginate, CURSOR_DEFAULT, CURSOR_MAX } from "../pagination.js";
import { STD_ERRORS, anyObject, cursorListResponse, cursorQuery as cq, dataOf, errorResponses, nul, params } from "../schemas.js";
import { HttpError, badRequest, forbidden, iso, notFound, uuid } from "../util.js";
import { reportOut } from "../serialize.js";

const P = "/api/v1/deployments/:deploymentId/reports";
const placementSchema = {
  type: "object",
  properties: {
    placementId: { type: "string" },
    externalWorkbookId: { type: "string" },
    sheetName: { type: "string" },
    anchorCell: { type: "string" },
    refreshedAt: { type: "string" },
  },
};
const reportSchema = {
  type: "object",
  properties: {
    id: { type: "integer" },
    deploymentId: { type: "integer" },
    name: { type: "string" },
    publicId: { type: nul("string") },
    kind: { type: nul("string") },
    sqlQuery: { type: nul("string") },
    workbookId: { type: nul("integer") },
    folderId: { type: nul("integer") },
    folderPath: { type: "array", items: { type: "object", properties: { id: { type: "integer" }, name: { type: "string" } } } },
    createdBy: { type: "integer" },
    createdAt: { type: "string" },
    updatedAt: { type: "string" },
    lastViewedAt: { type: nul("string") },
    meta: anyObject,
    placements: { type: "array", items: placementSchema },
  },
};
const address = {
  placementId: { type: "string", minLength: 1 },
  externalWorkbookId: { type: "string", minLength: 1 },
  sheetName: { type: "string", minLength: 1, maxLength: 100 },
  anchorCell: { type: "string", pattern: "^[A-Z]{1,3}[1-9][0-9]{0,6}$" },
};
const addressed = [{ required: ["placementId"] }, { required: ["externalWorkbookId", "sheetName", "anchorCell"] }];
type Addr = { placementId?: string; externalWorkbookId?: string; sheetName?: string; anchorCell?: string };

function findPlacement(r: Item, a: Addr): Placement {
  const p = (r.placements ?? []).find((x) =>
    a.placementId
      ? x.placementId === a.placementId
      : x.externalWorkbookId === a.externalWorkbookId && x.sheetName === a.sheetName && x.anchorCell === a.anchorCell,
  );
  if (!p) throw notFound("Placement");
  return p;
}

export async function reportRoutes(app: FastifyInstance, { store: s }: RouteOpts): Promise<void> {
  const getReport = (req: { params: unknown }, need: "read" | "edit") => {
    const { deploymentId, reportId } = req.params as { deploymentId: number; reportId: number };
    const c = caller(req as never);
    const r = findItem(s, c, deployment(s, deploymentId).id, reportId, "REPORT");
    if (!hasAccess(s, c, r, need)) throw forbidden(`No ${need} access to report ${reportId}`);
    return r;
  };

  app.get(
    P,
    {
      schema: {
        tags: ["reports"],
        summary: "List reports (cursor not available with sortBy=lastViewedAt)",
        params: params(["deploymentId"]),
        querystring: {
          type: "object",
          properties: {
            folderId: { type: nul("integer"), minimum: 0, description: "0/null/empty = root" },
            externalWorkbookId: { type: "string" },
            search: { type: "string" },
            sortBy: { type: "string", enum: ["createdAt", "updatedAt", "lastViewedAt", "name"], default: "createdAt" },
            order: { type: "string", enum: ["asc", "desc"], default: "desc" },
            ...cq,
          },
        },
        response: { 200: cursorListResponse(reportSchema), ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      const c = caller(req);
      const q = req.query as {
        folderId?: number | null;
        externalWorkbookId?: string;
        search?: string;
        sortBy: keyof Item;
        order: string;
        first?: number;
        after?: string;
      };
      const folder = "folderId" in q ? (q.folderId === 0 ? null : (q.folderId ?? null)) : undefined;
      const dir = q.order === "asc" ? 1 : -1;
      const list = [...s.items.values()]
        .filter((i) => i.deploymentId === d.id && i.workspace === c.workspace && i.type === "REPORT")
        .filter((i) => folder === undefined || i.folderId === folder)
        .filter((i) => !q.externalWorkbookId || (i.placements ?? []).some((p) => p.externalWorkbookId === q.externalWorkbookId))
        .filter((i) => !q.search || `${i.name} ${i.sqlQuery ?? ""}`.toLowerCase().includes(q.search.toLowerCase()))
        .filter((i) => hasAccess(s, c, i, "read"))
        .map((i) => ({ ...i, lastViewedAt: s.viewHistory.get(`${c.user.id}:${i.id}`) ?? i.lastViewedAt ?? null }))
        .sort((a, b) =>
          String(a[q.sortBy] ?? "") < String(b[q.sortBy] ?? "") ? -dir : String(a[q.sortBy] ?? "") > String(b[q.sortBy] ?? "") ? dir : a.id - b.id,
        )
        .map((i) => reportOut(s, i));
      if (q.sortBy === "lastViewedAt") {
        if (q.after !== undefined) throw badRequest("Cursor pagination is not available when sorting by lastViewedAt", "cursor_unavailable");
        const items = list.slice(0, Math.min(q.first ?? CURSOR_DEFAULT, CURSOR_MAX));
        return {
          items,
          data: items,
          count: list.length,
          pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
          pagination: null,
        };
      }
      return cursorEnvelope(
        paginate(list, q, `reports:${d.id}:${c.user.id}:${JSON.stringify([folder, q.externalWorkbookId, q.search, q.sortBy, q.order])}`, true),
      );
    },
  );

  app.put(
    `${P}/by-public-id/:publicId`,
    {
      schema: {
        tags: ["reports"],
        summary: "Create (201) or update (200) a report by public id",
        params: params(["deploymentId"], ["publicId"]),
        body: {
          type: "object",
          properties: {
            name: { type: "string", minLength: 1, maxLength: 255 },
            sqlQuery: { type: nul("string") },
            kind: { type: nul("string"), enum: ["vega", "table", "kpi", "html", "map", null] },
            folderId: { type: nul("integer"), minimum: 1 },
            workbookId: { type: nul("integer"), minimum: 1 },
            meta: anyObject,
          },
        },
        response: { 200: dataOf(reportSchema), 201: dataOf(reportSchema), ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req, reply) => {
      const { deploymentId, publicId } = req.params as { deploymentId: number; publicId: string };
      const d = deployment(s, deploymentId);
      const c = caller(req);
      const b = req.body as {
        name?: string;
        sqlQuery?: string | null;
        kind?: string | null;
        folderId?: number | null;
        workbookId?: number | null;
        meta?: Record<string, unknown>;
      };
      if (b.folderId != null) {
        const f = findItem(s, c, d.id, b.folderId, "FOLDER");
        if (!hasAccess(s, c, f, "edit")) throw forbidden("No edit access to the folder");
      }
      if (b.workbookId != null) findItem(s, c, d.id, b.workbookId, "WORKBOOK");
      let r = [...s.items.values()].find((i) => i.deploymentId === d.id && i.type === "REPORT" && i.publicId === publicId);
      const created = !r;
      if (r) {
        if (r.workspace !== c.workspace || !hasAccess(s, c, r, "edit")) throw forbidden("No edit access to this report");
        const { meta, ...rest } = b;
        Object.assign(r, Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)));
        if (meta) r.meta = { ...r.meta, ...meta };
        r.updatedAt = iso();
      } else {
        requireRole(c, "ai-bi-user", "Creating a report");
        if (!b.name) throw badRequest("name is required to create a report", "name_required");
        const now = iso();
        r = {
          id: s.nextId(),
          deploymentId: d.id,
          workspace: c.workspace,
          type: "REPORT",
          name: b.name,
          meta: b.meta ?? {},
          calculatedFields: {},
          createdAt: now,
          updatedAt: now,
          createdBy: c.user.id,
          ownerId: c.user.id,
          folderId: b.folderId ?? null,
          slug: null,
          dashboardDraft: null,
          publishedDashboardId: null,
          policies: [],
          workbookId: b.workbookId ?? null,
          publicId,
          kind: b.kind ?? "table",
          sqlQuery: b.sqlQuery ?? null,
          lastViewedAt: null,
          placements: [],
        };
        s.items.set(r.id, r);
      }
      return reply.code(created ? 201 : 200).send({ data: reportOut(s, r) });
    },
  );

  app.put(
    `${P}/:reportId/connect-workbook`,
    {
      schema: {
        tags: ["reports"],
        summary: "Place a report in a spreadsheet (or update the placement addressed by placementId)",
        params: params(["deploymentId", "reportId"]),
        body: { type: "object", anyOf: [{ required: ["externalWorkbookId", "sheetName", "anchorCell"] }, { required: ["placementId"] }], properties: address },
        response: { 200: dataOf(placementSchema), ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const r = getReport(req, "read");
      const b = req.body as Addr;
      let p = b.placementId
        ? findPlacement(r, { placementId: b.placementId })
        : (r.placements ?? []).find((x) => x.externalWorkbookId === b.externalWorkbookId && x.sheetName === b.sheetName && x.anchorCell === b.anchorCell);
      if (p) Object.assign(p, Object.fromEntries(Object.entries(b).filter(([k, v]) => k !== "placementId" && v !== undefined)));
      else {
        p = { placementId: uuid(), externalWorkbookId: b.externalWorkbookId!, sheetName: b.sheetName!, anchorCell: b.anchorCell!, refreshedAt: iso() };
        (r.placements ??= []).push(p);
      }
      return { data: p };
    },
  );

  app.delete(
    `${P}/:reportId/connect-workbook`,
    {
      schema: {
        tags: ["reports"],
        summary: "Remove a placement (query: placementId, or externalWorkbookId + sheetName + anchorCell)",
        params: params(["deploymentId", "reportId"]),
        querystring: { type: "object", anyOf: addressed, properties: address },
        response: { 204: { type: "null", description: "Removed" }, ...errorResponses(404, ...STD_ERRORS) },
      },
    },
    async (req, reply) => {
      const r = getReport(req, "read");
      const p = findPlacement(r, req.query as Addr);
      r.placements = (r.placements ?? []).filter((x) => x !== p);
      return reply.code(204).send();
    },
  );

  app.put(
    `${P}/:reportId/refresh`,
    {
      schema: {
        tags: ["reports"],
        summary: "Refresh a spreadsheet placement",
        params: params(["deploymentId", "reportId"]),
        body: { type: "object", anyOf: addressed, properties: address },
        response: { 200: dataOf(placementSchema), ...errorResponses(404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const r = getReport(req, "read");
      const p = findPlacement(r, req.body as Addr);
      p.refreshedAt = iso();
      return { data: p };
    },
  );
}
export { HttpError };
