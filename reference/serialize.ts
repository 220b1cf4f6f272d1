import type { Item, Store } from "./store.js";

/** Resources / Workbook: the record every workspace endpoint returns. */
export function workbookRecord(store: Store, item: Item): Record<string, unknown> {
  const owner = store.users.find((u) => u.id === item.createdBy);
  return {
    id: item.id,
    deploymentId: item.deploymentId,
    name: item.name,
    type: item.type,
    meta: item.meta,
    calculatedFields: item.calculatedFields,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    createdBy: item.createdBy,
    userId: item.createdBy,
    user: owner ? { id: owner.id, email: owner.email, firstName: owner.firstName, picture: null } : null,
    folderId: item.folderId,
    folderPath: folderPath(store, item.folderId),
    isFavorite: false,
    slug: item.slug,
    dashboardDraft: item.type === "WORKBOOK" ? item.dashboardDraft : null,
    dashboardPublished: item.publishedDashboard?.config ?? null,
    publishedDashboard: item.publishedDashboard,
  };
}

/** The containing folder and its ancestors, outermost first; stops at a cycle a faulty move left. */
export function folderPath(store: Store, folderId: number | null): { id: number; name: string }[] {
  const path: { id: number; name: string }[] = [];
  for (let id = folderId; id != null; ) {
    const f = store.items.get(id);
    if (!f || path.some((p) => p.id === f.id)) break;
    path.unshift({ id: f.id, name: f.name });
    id = f.folderId;
  }
  return path;
}

/** The folder record, as the folders list (E14, the platform's published documentation) shows one. */
export function folderRecord(f: Item) {
  return {
    id: f.id,
    name: f.name,
    position: f.position ?? f.id,
    deploymentId: f.deploymentId,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    type: "FOLDER",
    parentId: f.folderId,
    createdBy: f.createdBy,
  };
}
