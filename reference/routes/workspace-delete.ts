import { atLeast, accessTo } from "../access.js";
import { HttpError, ok, type Route } from "../http.js";
import { deploymentOf } from "./common.js";
import type { Item } from "../store.js";

/**
 * E14 bulk delete, as the platform's published documentation describes it: per-item failures, no rollback, a folder's direct
 * contents move to the root, a folder that still has sub-folders is refused. The suite's cleanup
 * relies on it.
 */
export const workspaceDeleteRoutes: Route[] = [
  {
    operation: "bulkDeleteWorkspaceItems",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const refs = app.b.bulkDeleteRefs(req.body);
      if (refs.length === 0) throw new HttpError(400, "items must hold 1 to 100 entries");
      const deleted: { type: string; id: number }[] = [];
      const failed: { type: string; id: number; error: { status: number; message: string } }[] = [];
      const removed: Item[] = [];
      for (const ref of refs) {
        const item = app.store.items.get(ref.id);
        if (!item || item.deploymentId !== dep.id || item.type !== ref.type) {
          failed.push({ ...ref, error: { status: 404, message: `${ref.type.toLowerCase()} ${ref.id} not found` } });
          continue;
        }
        if (!atLeast(accessTo(app.store, req.user, item), "manage")) {
          failed.push({ ...ref, error: { status: 403, message: "manage access is required to delete" } });
          continue;
        }
        const children = [...app.store.items.values()].filter((i) => i.folderId === item.id);
        if (item.type === "FOLDER" && children.some((c) => c.type === "FOLDER")) {
          failed.push({ ...ref, error: { status: 400, message: "the folder still has sub-folders" } });
          continue;
        }
        for (const c of children) c.folderId = null;
        // A workbook's reports go with it.
        for (const r of [...app.store.items.values()]) if (r.workbookId === item.id) removed.push(r);
        removed.push(item);
        for (const r of removed) app.store.items.delete(r.id);
        deleted.push(ref);
      }
      return ok({ deleted, failed });
    },
  },
];
