import type { FastifyInstance } from "fastify";
import type { RouteOpts } from "../app.js";
import type { ItemType } from "../types.js";
import { caller, deployment, findItem, hasAccess } from "../access.js";
import { cursorEnvelope, paginate } from "../pagination.js";
import { STD_ERRORS, cursorListResponse, cursorQuery as cq, errorResponses, nul, params, ref } from "../schemas.js";
import { HttpError, forbidden } from "../util.js";
import { folderOut, workbookOut } from "../serialize.js";
import { deleteItem, moveItem } from "../workspace-ops.js";

const P = "/api/v1/deployments/:deploymentId";
const failedItem = {
  type: "object",
  required: ["type", "id", "error"],
  properties: {
    type: { type: "string", enum: ["WORKBOOK", "REPORT", "FOLDER"] },
    id: { type: "integer" },
    error: { type: "object", required: ["message", "status"], properties: { message: { type: "string" }, status: { type: "integer" } } },
  },
};
const itemsBody = { type: "array", maxItems: 100, items: ref("WorkspaceItemRef"), description: "Up to 100; duplicates are collapsed" };

function distinct(items: Array<{ type: ItemType; id: number }>): Array<{ type: ItemType; id: number }> {
  const seen = new Set<string>();
  return items.filter((i) => {
    const k = `${i.type}:${i.id}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
function failure(type: ItemType, id: number, e: unknown) {
  if (e instanceof HttpError) return { type, id, error: { message: e.message, status: e.statusCode } };
  throw e;
}

export async function workspaceRoutes(app: FastifyInstance, { store: s }: RouteOpts): Promise<void> {
  app.post(
    `${P}/workspace/bulk-move`,
    {
      schema: {
        tags: ["workspace"],
        summary: "E12 Move workspace items in bulk (per-item failures)",
        params: params(["deploymentId"]),
        body: {
          type: "object",
          required: ["items", "folderId"],
          properties: {
            items: itemsBody,
            folderId: { type: nul("integer"), minimum: 1, description: "Destination folder; null = workspace root" },
          },
        },
        response: {
          200: {
            type: "object",
            required: ["moved", "failed"],
            properties: {
              moved: { type: "array", items: ref("Workbook") },
              failed: { type: "array", items: failedItem },
            },
          },
          ...errorResponses(404, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      const c = caller(req);
      const b = req.body as { items: Array<{ type: ItemType; id: number }>; folderId: number | null };
      const moved: unknown[] = [];
      const failed: unknown[] = [];
      for (const ref of distinct(b.items)) {
        try {
          moved.push(workbookOut(s, c, moveItem(s, c, d, ref.type, ref.id, b.folderId)));
        } catch (e) {
          failed.push(failure(ref.type, ref.id, e));
        }
      }
      return { moved, failed };
    },
  );

  app.post(
    `${P}/workspace/bulk-delete`,
    {
      schema: {
        tags: ["workspace"],
        summary: "Delete workspace items in bulk (per-item failures; folders must be empty)",
        params: params(["deploymentId"]),
        body: { type: "object", required: ["items"], properties: { items: itemsBody } },
        response: {
          200: {
            type: "object",
            required: ["deleted", "failed"],
            properties: {
              deleted: { type: "array", items: ref("WorkspaceItemRef") },
              failed: { type: "array", items: failedItem },
            },
          },
          ...errorResponses(404, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      const c = caller(req);
      const deleted: unknown[] = [];
      const failed: unknown[] = [];
      for (const ref of distinct((req.body as { items: Array<{ type: ItemType; id: number }> }).items)) {
        try {
          deleteItem(s, c, d, ref.type, ref.id);
          deleted.push(ref);
        } catch (e) {
          failed.push(failure(ref.type, ref.id, e));
        }
      }
      return { deleted, failed };
    },
  );

  app.get(
    `${P}/folders`,
    {
      schema: {
        tags: ["workspace"],
        summary: "List folders (cursor pagination)",
        params: params(["deploymentId"]),
        querystring: {
          type: "object",
          properties: { parentId: { type: nul("integer"), minimum: 0, description: "0/null/empty = root" }, search: { type: "string" }, ...cq },
        },
        response: {
          200: cursorListResponse({
            type: "object",
            properties: {
              id: { type: "integer" },
              deploymentId: { type: "integer" },
              name: { type: "string" },
              parentId: { type: nul("integer") },
              folderPath: { type: "array", items: { type: "object", properties: { id: { type: "integer" }, name: { type: "string" } } } },
              createdBy: { type: "integer" },
              createdAt: { type: "string" },
              updatedAt: { type: "string" },
              childCount: { type: "integer" },
            },
          }),
          ...errorResponses(400, 404, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      const c = caller(req);
      const q = req.query as { parentId?: number | null; search?: string; first?: number; after?: string };
      const parent = "parentId" in q ? (q.parentId === 0 ? null : (q.parentId ?? null)) : undefined;
      const list = [...s.items.values()]
        .filter((i) => i.deploymentId === d.id && i.workspace === c.workspace && i.type === "FOLDER")
        .filter((i) => parent === undefined || i.folderId === parent)
        .filter((i) => !q.search || i.name.toLowerCase().includes(q.search.toLowerCase()))
        .filter((i) => hasAccess(s, c, i, "read"))
        .sort((a, b) => a.id - b.id)
        .map((i) => folderOut(s, i));
      return cursorEnvelope(paginate(list, q, `folders:${d.id}:${c.user.id}:${String(parent)}:${q.search ?? ""}`, true));
    },
  );

  const accessOut = (entries: Array<{ embedTenantId: string | null; action: string }>) => ({ data: entries });
  const accessSchema = {
    type: "object",
    properties: {
      data: {
        type: "array",
        items: {
          type: "object",
          required: ["embedTenantId", "action"],
          properties: {
            embedTenantId: { type: nul("string"), description: "null = all embed users" },
            action: { type: "string", enum: ["read", "none"] },
          },
        },
      },
    },
  };
  app.get(
    `${P}/workbooks/:workbookId/embed-access`,
    {
      schema: {
        tags: ["embedding"],
        summary: "Read dashboard access per embed tenant",
        params: params(["deploymentId", "workbookId"]),
        response: { 200: accessSchema, ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const { deploymentId, workbookId } = req.params as { deploymentId: number; workbookId: number };
      const c = caller(req);
      const wb = findItem(s, c, deployment(s, deploymentId).id, workbookId, "WORKBOOK");
      if (!hasAccess(s, c, wb, "read")) throw forbidden("No read access to this workbook");
      const dash = wb.publishedDashboardId !== null ? s.dashboards.get(wb.publishedDashboardId) : undefined;
      return accessOut(dash?.embedAccess ?? []);
    },
  );
  app.put(
    `${P}/workbooks/:workbookId/embed-access`,
    {
      schema: {
        tags: ["embedding"],
        summary: "Change dashboard access for an embed tenant or for all embed users",
        params: params(["deploymentId", "workbookId"]),
        body: {
          type: "object",
          required: ["action"],
          properties: { embedTenantId: { type: nul("string"), default: null }, action: { type: "string", enum: ["read", "none"] } },
        },
        response: { 200: accessSchema, ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const { deploymentId, workbookId } = req.params as { deploymentId: number; workbookId: number };
      const c = caller(req);
      const wb = findItem(s, c, deployment(s, deploymentId).id, workbookId, "WORKBOOK");
      if (!hasAccess(s, c, wb, "manage")) throw forbidden("Manage access to the workbook is required");
      const dash = wb.publishedDashboardId !== null ? s.dashboards.get(wb.publishedDashboardId) : undefined;
      if (!dash) throw new HttpError(400, "The workbook has no published dashboard", "no_published_dashboard");
      const b = req.body as { embedTenantId: string | null; action: "read" | "none" };
      if (b.embedTenantId !== null && !s.collection("embed-tenants").has(b.embedTenantId))
        throw new HttpError(404, `Embed tenant ${b.embedTenantId} not found`, "not_found");
      dash.embedAccess = [...dash.embedAccess.filter((e) => e.embedTenantId !== b.embedTenantId), { embedTenantId: b.embedTenantId, action: b.action }];
      return accessOut(dash.embedAccess);
    },
  );
}
