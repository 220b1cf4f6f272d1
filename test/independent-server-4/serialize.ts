import type { Store } from "./store.js";
import type { Dashboard, Item } from "./types.js";
import type { Caller } from "./access.js";

export function folderPath(s: Store, item: Item): Array<{ id: number; name: string }> {
  const path: Array<{ id: number; name: string }> = [];
  let fid = item.folderId;
  const seen = new Set<number>();
  while (fid !== null && !seen.has(fid)) {
    seen.add(fid);
    const f = s.items.get(fid);
    if (!f) break;
    path.unshift({ id: f.id, name: f.name });
    fid = f.folderId;
  }
  return path;
}

export function dashboardOut(d: Dashboard): Record<string, unknown> {
  const { embedAccess: _embedAccess, ...rest } = d;
  return rest;
}

/** Workbook record (also used for FOLDER and REPORT items, e.g. in bulk-move results). */
export function workbookOut(s: Store, c: Caller | null, item: Item): Record<string, unknown> {
  const owner = s.users.get(item.ownerId);
  const dash = item.publishedDashboardId !== null ? s.dashboards.get(item.publishedDashboardId) : undefined;
  const out: Record<string, unknown> = {
    id: item.id,
    deploymentId: item.deploymentId,
    name: item.name,
    type: item.type,
    meta: item.meta,
    calculatedFields: item.calculatedFields,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    createdBy: item.createdBy,
    userId: owner ? owner.id : null,
    user: owner ? { id: owner.id, email: owner.email, firstName: owner.firstName, picture: owner.picture } : null,
    folderId: item.folderId,
    folderPath: folderPath(s, item),
    isFavorite: c ? s.favorites.has(`${c.user.id}:${item.id}`) : null,
    slug: item.slug,
    dashboardDraft: item.dashboardDraft,
    dashboardPublished: dash ? dash.config : null,
    publishedDashboard: dash ? dashboardOut(dash) : null,
  };
  return out;
}

export function reportOut(s: Store, item: Item): Record<string, unknown> {
  return {
    id: item.id,
    deploymentId: item.deploymentId,
    name: item.name,
    publicId: item.publicId ?? null,
    kind: item.kind ?? null,
    sqlQuery: item.sqlQuery ?? null,
    workbookId: item.workbookId ?? null,
    folderId: item.folderId,
    folderPath: folderPath(s, item),
    createdBy: item.createdBy,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    lastViewedAt: item.lastViewedAt ?? null,
    meta: item.meta,
    placements: item.placements ?? [],
  };
}

export function folderOut(s: Store, item: Item): Record<string, unknown> {
  return {
    id: item.id,
    deploymentId: item.deploymentId,
    name: item.name,
    parentId: item.folderId,
    folderPath: folderPath(s, item),
    createdBy: item.createdBy,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    childCount: [...s.items.values()].filter((i) => i.folderId === item.id && i.workspace === item.workspace).length,
  };
}
