import { atLeast, accessTo } from "../access.js";
import { HttpError, ok, type Route } from "../http.js";
import { cursorPage, intParam } from "../paging.js";
import { workbookRecord } from "../serialize.js";
import { deploymentOf, itemOf, itemsOf } from "./common.js";

const DEFAULT_FIRST = 20;

export const workspaceReadRoutes: Route[] = [
  {
    spec: "E8",
    method: "GET",
    pattern: "/api/v1/deployments/:deploymentId/workbooks",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const rawFolder = req.query.get("folderId");
      const folderId = rawFolder === "null" ? null : intParam(app.b, req.query, "folderId", 0);
      const visible = itemsOf(app, dep, "WORKBOOK")
        .filter((w) => atLeast(accessTo(app.store, req.user, w), "read"))
        .filter((w) => rawFolder === null || w.folderId === folderId)
        .sort((a, b) => a.id - b.id);
      const page = cursorPage(app.b, visible, req.query, DEFAULT_FIRST);
      const items = page.items.map((w) => workbookRecord(app.store, w));
      return ok({ items, data: items, count: visible.length, pageInfo: page.pageInfo });
    },
  },
  {
    spec: "E9",
    method: "GET",
    pattern: "/api/v1/deployments/:deploymentId/workbooks/:workbookId",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const wb = itemOf(app, dep, req.params.workbookId, "WORKBOOK");
      if (!atLeast(accessTo(app.store, req.user, wb), "read")) throw new HttpError(404, `workbook ${wb.id} not found`);
      return ok(workbookRecord(app.store, wb));
    },
  },
  {
    spec: "E14",
    method: "GET",
    pattern: "/api/v1/deployments/:deploymentId/folders",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const parentId = intParam(app.b, req.query, "parentId", 0) ?? null;
      const level = itemsOf(app, dep, "FOLDER")
        .filter((f) => f.folderId === parentId && atLeast(accessTo(app.store, req.user, f), "read"))
        .sort((a, b) => a.id - b.id);
      const page = cursorPage(app.b, level, req.query, DEFAULT_FIRST);
      const items = page.items.map((f) => ({ id: f.id, name: f.name, position: f.id, deploymentId: f.deploymentId, createdAt: f.createdAt, updatedAt: f.updatedAt, type: "FOLDER", parentId: f.folderId, createdBy: f.createdBy }));
      return ok({ items, data: items, count: level.length, pageInfo: page.pageInfo });
    },
  },
];
