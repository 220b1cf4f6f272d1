import type { Access, Item, Store, User } from "../store.js";
import { atLeast } from "../access.js";
import { itemRefs } from "../routes/item-refs.js";

/** The clean decisions of E12 bulk move and E10 clone (reference/behaviour.ts merges them). */
export const workbookBehaviour = {
  /** E12 Body and Limits: up to 100 {type, id} items, duplicates collapsed, malformed a 400. */
  bulkMoveItems(body: unknown): { type: Item["type"]; id: number }[] {
    return itemRefs(body);
  },

  /** E12 Body: folderId is an integer or null (the root); anything else is undefined, a request error. */
  bulkMoveDestination(value: unknown): number | null | undefined {
    return value === null ? null : Number.isSafeInteger(value) ? (value as number) : undefined;
  },

  /** E12: a destination is a folder of the same deployment. */
  isFolderOf(item: Item | undefined, deploymentId: number): boolean {
    return item?.type === "FOLDER" && item.deploymentId === deploymentId;
  },

  /**
   * E12: a destination folder that does not exist is a request error (undefined: 404); a server
   * may report it per item instead, with the status returned here (E12 names 404 and 400 for a
   * failed item, not which a missing destination gets).
   */
  missingDestinationStatus(): number | undefined {
    return undefined;
  },

  /** E12 and Authentication 4 (the single-item move): edit access to the item and to the destination. */
  mayMove(itemAccess: Access, destinationAccess: Access): boolean {
    return atLeast(itemAccess, "edit") && atLeast(destinationAccess, "edit");
  },

  /** E12: a folder cannot go into itself or its own descendant; bounded, so a cycle cannot hang it. */
  nestsInItself(store: Store, folder: Item, destinationId: number | null): boolean {
    const seen = new Set<number>();
    for (let id = destinationId; id != null && !seen.has(id); id = store.items.get(id)?.folderId ?? null) {
      if (id === folder.id) return true;
      seen.add(id);
    }
    return false;
  },

  /** States (bulk move): the item now lives in the destination; returns it as it now is. */
  placeItem(item: Item, folderId: number | null): Item {
    item.folderId = folderId;
    item.updatedAt = new Date().toISOString();
    return item;
  },

  /** E10 rule 2: a report reference of the clone names the copy of the source's report. */
  cloneReportRef(reportId: number, copies: Map<number, number>): number {
    return copies.get(reportId) ?? reportId;
  },

  /** E10 rule 2: the clone owns its content: nothing is shared with the source. */
  cloneCopy<T>(value: T): T {
    return structuredClone(value);
  },

  /** E10 rule 4: the source's folder with edit access to it; else, or from the root, the root. */
  clonePlacement(sourceFolderId: number | null, folderAccess: Access): number | null {
    return sourceFolderId !== null && atLeast(folderAccess, "edit") ? sourceFolderId : null;
  },

  /** E10 rule 6: `shared: true` is for creator-mode embed sessions only. */
  mayCloneShared(user: User): boolean {
    return user.creatorMode;
  },

  /** E10 rule 6: a shared clone is built from the published dashboard, so it needs one. */
  sharedCloneSourceUsable(source: Item): boolean {
    return source.publishedDashboard != null;
  },

  /** E10 rule 7: null is a plan without a workbook limit. */
  workbookLimitReached(workbooks: number, limit: number | null): boolean {
    return limit !== null && workbooks >= limit;
  },
};
