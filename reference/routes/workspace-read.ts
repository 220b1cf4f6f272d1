import { atLeast, accessTo } from "../access.js";
import { type App, HttpError, ok, type Req, type Route } from "../http.js";
import { cursorPage, intParam } from "../paging.js";
import { folderRecord, workbookRecord } from "../serialize.js";
import type { DeploymentRecord, Item } from "../store.js";
import { deploymentOf, itemsOf } from "./common.js";

const DEFAULT_FIRST = 20;

/** E9 (Errors 2: 404): a workbook that is missing, another deployment's, or unreadable to the caller is not found. */
function readableWorkbook(app: App, dep: DeploymentRecord, req: Req): Item {
  const raw = req.params.workbookId;
  const wb = /^\d+$/.test(raw) ? app.store.items.get(Number(raw)) : undefined;
  if (wb?.type === "WORKBOOK" && app.b.itemBelongsTo(wb, dep.id) && atLeast(accessTo(app.store, req.user, wb), "read")) return wb;
  throw new HttpError(404, `workbook ${raw} not found`);
}

export const workspaceReadRoutes: Route[] = [
  {
    operation: "listWorkbooks",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const rawFolder = req.query.get("folderId");
      // The filter holds on every page it serves, whatever its after.
      const folderId = rawFolder === "null" ? null : intParam(app.b, req.query, "folderId", 0);
      const visible = app.b
        .workbookListOrder(itemsOf(app, dep))
        .filter((w) => atLeast(accessTo(app.store, req.user, w), "read"))
        .filter((w) => folderId === undefined || app.b.listedInFolder(w, folderId));
      const page = cursorPage(app.b, visible, req.query, DEFAULT_FIRST);
      const items = page.items.map((w) => workbookRecord(app.store, w));
      return ok({ items, data: items, count: visible.length, pageInfo: page.pageInfo });
    },
  },
  {
    operation: "getWorkbook",
    handler: (req, app) => ok(workbookRecord(app.store, readableWorkbook(app, deploymentOf(app, req), req))),
  },
  {
    operation: "listFolders",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const parentId = intParam(app.b, req.query, "parentId", 0) ?? null;
      const level = itemsOf(app, dep, "FOLDER")
        .filter((f) => f.folderId === parentId && atLeast(accessTo(app.store, req.user, f), "read"))
        .sort((a, b) => a.id - b.id);
      const page = cursorPage(app.b, level, req.query, DEFAULT_FIRST);
      const items = page.items.map(folderRecord);
      return ok({ items, data: items, count: level.length, pageInfo: page.pageInfo });
    },
  },
];
