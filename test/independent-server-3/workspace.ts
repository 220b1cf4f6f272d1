// Workspace item lookup and the single-item move/delete rules shared by bulk and upsert.
import { accessTo, atLeast, folderAccess } from "./auth.js";
import type { Principal } from "./auth.js";
import { notFound } from "./http.js";
import type { Deployment, Item, ItemType, Store } from "./store.js";

export const MAX_FOLDER_DEPTH = 5;

export function parseId(raw: string | undefined, what: string): number {
  if (raw === undefined || !/^\d+$/.test(raw)) throw notFound(`${what} ${raw ?? ""} not found`);
  return Number(raw);
}

export function itemIn(store: Store, d: Deployment, id: number, workspace: "main" | "shared" = "main"): Item | undefined {
  const it = store.items.get(id);
  return it && it.deploymentId === d.id && it.workspace === workspace ? it : undefined;
}

/** True when `folderId` is `ancestorId` itself or lies below it. */
export function isWithin(store: Store, folderId: number, ancestorId: number): boolean {
  let cur: Item | undefined = store.items.get(folderId);
  const seen = new Set<number>();
  while (cur && !seen.has(cur.id)) {
    if (cur.id === ancestorId) return true;
    seen.add(cur.id);
    cur = cur.folderId !== undefined ? store.items.get(cur.folderId) : undefined;
  }
  return false;
}

/** Depth of a folder counted from the root (a top-level folder has depth 1; the root 0). */
export function depthOf(store: Store, folderId: number | undefined): number {
  let n = 0;
  let cur = folderId !== undefined ? store.items.get(folderId) : undefined;
  while (cur && n < 100) {
    n++;
    cur = cur.folderId !== undefined ? store.items.get(cur.folderId) : undefined;
  }
  return n;
}

export function subfolders(store: Store, folder: Item): Item[] {
  return [...store.items.values()].filter((i) => i.type === "FOLDER" && i.folderId === folder.id);
}

function heightOf(store: Store, folder: Item, guard = 0): number {
  if (guard > 100) return 1;
  return 1 + Math.max(0, ...subfolders(store, folder).map((f) => heightOf(store, f, guard + 1)));
}

export interface Failure {
  status: number;
  message: string;
}

/** Checks a destination folder (null = root). */
export function checkDestination(store: Store, p: Principal, d: Deployment, dest: number | null): Failure | null {
  if (dest === null) {
    return atLeast(folderAccess(store, p, undefined), "edit") ? null : { status: 403, message: "you may not place items at the workspace root" };
  }
  const f = itemIn(store, d, dest);
  if (!f || f.type !== "FOLDER") return { status: 404, message: `destination folder ${dest} not found` };
  if (!atLeast(accessTo(store, p, f), "edit")) return { status: 403, message: `you need edit access to folder ${dest}` };
  return null;
}

/** The single-item move: 404 missing, 403 no access, 400 invalid move. Applies synchronously. */
export function moveOne(store: Store, p: Principal, d: Deployment, type: ItemType, id: number, dest: number | null): Item | Failure {
  const item = itemIn(store, d, id);
  if (!item || item.type !== type) return { status: 404, message: `${type} ${id} not found in deployment ${d.id}` };
  const acc = accessTo(store, p, item);
  if (!atLeast(acc, "manage")) return { status: 403, message: `you need manage access to move ${type} ${id}` };
  const destFail = checkDestination(store, p, d, dest);
  if (destFail) return destFail;
  if (type === "FOLDER" && dest !== null) {
    if (isWithin(store, dest, item.id)) return { status: 400, message: `folder ${id} cannot be moved into itself or one of its descendants` };
    if (depthOf(store, dest) + heightOf(store, item) > MAX_FOLDER_DEPTH)
      return { status: 400, message: `folders can be nested at most ${MAX_FOLDER_DEPTH} levels deep` };
  }
  const next = dest ?? undefined;
  if (item.folderId !== next) {
    item.folderId = next;
    item.updatedAt = new Date().toISOString();
  }
  return item;
}

/** The single-item delete: folders with sub-folders are refused; a folder's direct contents go to the root. */
export function deleteOne(store: Store, p: Principal, d: Deployment, type: ItemType, id: number): Item | Failure {
  const item = itemIn(store, d, id);
  if (!item || item.type !== type) return { status: 404, message: `${type} ${id} not found in deployment ${d.id}` };
  const need = type === "REPORT" ? "edit" : "manage";
  if (!atLeast(accessTo(store, p, item), need)) return { status: 403, message: `you need ${need} access to delete ${type} ${id}` };
  if (type === "FOLDER") {
    if (subfolders(store, item).length > 0) return { status: 400, message: `folder ${id} still has sub-folders` };
    for (const child of store.items.values()) if (child.folderId === item.id) child.folderId = undefined;
  }
  if (type === "WORKBOOK") {
    for (const r of [...store.items.values()]) if (r.type === "REPORT" && r.workbookId === item.id) store.items.delete(r.id);
    if (item.dashboardId !== undefined) store.dashboards.delete(item.dashboardId);
  }
  store.items.delete(item.id);
  return item;
}

export function isFailure(x: Item | Failure): x is Failure {
  return (x as Failure).status !== undefined && (x as Item).id === undefined;
}

export function byNewest(a: Item, b: Item): number {
  return a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id - a.id;
}
