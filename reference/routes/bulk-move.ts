import { accessTo, accessToFolder } from "../access.js";
import { HttpError, ok, type Route } from "../http.js";
import { workbookRecord } from "../serialize.js";
import type { Item } from "../store.js";
import { deploymentOf } from "./common.js";

interface Failure {
  type: Item["type"];
  id: number;
  error: { message: string; status: number };
}

/**
 * E12. The whole request (items, destination) is validated before any item moves; then each item
 * is its own transaction, in the given order, and what cannot move is reported per item: a later
 * item's failure undoes no earlier move.
 */
export const bulkMoveRoutes: Route[] = [
  {
    operation: "bulkMoveWorkspaceItems",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const refs = app.b.bulkMoveItems(req.body);
      const destination = app.b.bulkMoveDestination(req.body.folderId);
      if (destination === undefined) throw new HttpError(400, "folderId must be an integer or null");
      // A missing destination is a request error, not a per-item one: nothing could move there (a variant reports it per item).
      const missing = destination !== null && !app.b.isFolderOf(app.store.items.get(destination), dep.id);
      const perItem = missing ? app.b.missingDestinationStatus() : undefined;
      if (missing && perItem === undefined) throw new HttpError(404, `folder ${destination} not found`);
      const destinationAccess = accessToFolder(app.store, req.user, destination);

      const moved: Record<string, unknown>[] = [];
      const failed: Failure[] = [];
      const fail = (ref: (typeof refs)[number], status: number, message: string) => failed.push({ ...ref, error: { status, message } });
      for (const ref of refs) {
        const item = app.store.items.get(ref.id);
        if (perItem !== undefined) fail(ref, perItem, `folder ${destination} not found`);
        else if (!item || !app.b.itemBelongsTo(item, dep.id) || item.type !== ref.type) fail(ref, 404, `${ref.type.toLowerCase()} ${ref.id} not found`);
        else if (!app.b.mayMove(accessTo(app.store, req.user, item), destinationAccess))
          fail(ref, 403, "edit access to the item and to the destination folder is required");
        else if (item.type === "FOLDER" && app.b.nestsInItself(app.store, item, destination))
          fail(ref, 400, "a folder cannot move into itself or its own descendant");
        // Serialized now, as the single-item move would answer at this point.
        else moved.push(workbookRecord(app.store, app.b.placeItem(item, destination)));
      }
      return ok({ moved, failed });
    },
  },
];
