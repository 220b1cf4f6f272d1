import { accessToFolder, atLeast } from "../access.js";
import { HttpError, ok, type Route } from "../http.js";
import { newItem, type Store } from "../store.js";
import { folderRecord } from "../serialize.js";
import { deploymentOf } from "./common.js";

/** the platform's published documentation: nesting has a maximum depth; beyond it the create is a 400. */
export const MAX_FOLDER_DEPTH = 8;

function depthOf(store: Store, folderId: number | null): number {
  let depth = 0;
  // Bounded: a cycle left by a faulty move must not hang the server.
  for (let id = folderId; id != null && depth <= MAX_FOLDER_DEPTH; depth++) id = store.items.get(id)?.folderId ?? null;
  return depth;
}

/**
 * E14 `POST .../folders`, as the platform's published documentation describes it: {name, parentId?, position?}; AI BI User with
 * edit access to the parent (the root when parentId is absent or null).
 */
export const folderWriteRoutes: Route[] = [
  {
    operation: "createFolder",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const body = req.body;
      if (!body || typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "the body must be an object {name, parentId?, position?}");
      if (typeof body.name !== "string" || body.name.trim() === "") throw new HttpError(400, "name must be a non-empty string");
      const parentId = body.parentId ?? null;
      if (parentId !== null && !Number.isSafeInteger(parentId)) throw new HttpError(400, "parentId must be an integer or null");
      if (body.position !== undefined && !Number.isSafeInteger(body.position)) throw new HttpError(400, "position must be an integer");
      if (parentId !== null) {
        const parent = app.store.items.get(parentId);
        if (!parent || parent.type !== "FOLDER" || parent.deploymentId !== dep.id) throw new HttpError(404, `folder ${parentId} not found`);
      }
      if (!req.user.aiBiUser) throw new HttpError(403, "creating a folder needs the AI BI User role");
      if (!atLeast(accessToFolder(app.store, req.user, parentId), "edit")) throw new HttpError(403, "edit access to the parent folder is required");
      if (depthOf(app.store, parentId) + 1 > MAX_FOLDER_DEPTH) throw new HttpError(400, `folders nest at most ${MAX_FOLDER_DEPTH} deep`);
      const siblings = [...app.store.items.values()].filter(
        (i) => i.type === "FOLDER" && i.deploymentId === dep.id && i.folderId === parentId && i.position !== undefined,
      );
      // facts: a folder is made at the position asked for (the siblings at and after it move one on), else after its siblings.
      const position = body.position ?? siblings.length;
      for (const s of siblings) if (s.position! >= position) s.position! += 1;
      const folder = newItem(app.store, { deploymentId: dep.id, type: "FOLDER", name: body.name, folderId: parentId, createdBy: req.user.id, position });
      return ok(folderRecord(folder));
    },
  },
];
