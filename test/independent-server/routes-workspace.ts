// E12 bulk move, bulk delete, folders and reports lists.
import { serialiseItem } from "./dashboard.js";
import { cursorPage, HttpError, isObject, noContent, ok, requireObjectBody, strAsc, toInt } from "./http-util.js";
import type { Ctx, Route } from "./router.js";
import { deleteItemDeep, descendantIds, findDeployment, getItem, itemsOf, nextItemId, type Item, type ItemType, type State } from "./store.js";
import { folderFilter, listPage } from "./routes-workbooks.js";

const TYPES: ItemType[] = ["WORKBOOK", "REPORT", "FOLDER"];

interface Ref {
  type: ItemType;
  id: number;
}

function parseRefs(raw: unknown): Ref[] {
  if (!Array.isArray(raw)) throw new HttpError(422, "items must be an array of {type, id}");
  const seen = new Set<string>();
  const out: Ref[] = [];
  raw.forEach((r, i) => {
    if (!isObject(r)) throw new HttpError(422, `items[${i}] must be an object`);
    const type = typeof r.type === "string" ? (r.type.toUpperCase() as ItemType) : undefined;
    if (!type || !TYPES.includes(type)) throw new HttpError(422, `items[${i}].type must be WORKBOOK, REPORT or FOLDER`);
    const id = toInt(r.id);
    if (id === undefined) throw new HttpError(422, `items[${i}].id must be an integer`);
    const key = `${type}:${id}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ type, id });
    }
  });
  if (out.length > 100) throw new HttpError(422, "at most 100 distinct items per request");
  return out;
}

function failure(ref: Ref, e: unknown) {
  const err = e instanceof HttpError ? e : new HttpError(400, "invalid operation");
  return { type: ref.type, id: ref.id, error: { message: err.message, status: err.status } };
}

/** Single-item move rules. */
function moveOne(st: State, depId: number, ref: Ref, dest: number | null): Item {
  const it = getItem(st, depId, ref.id, ref.type);
  if (dest !== null) {
    getItem(st, depId, dest, "FOLDER");
    if (it.type === "FOLDER" && (dest === it.id || descendantIds(st, it.id).has(dest))) {
      throw new HttpError(400, "a folder cannot be moved into itself or one of its descendants");
    }
  }
  if (it.folderId !== dest) {
    it.folderId = dest;
    it.updatedAt = new Date();
  }
  return it;
}

function bulkMove({ st, params, body }: Ctx) {
  const d = findDeployment(st, params.deploymentId);
  const b = requireObjectBody(body);
  const refs = parseRefs(b.items);
  if (!("folderId" in b)) throw new HttpError(422, "folderId is required (null for the workspace root)");
  let dest: number | null = null;
  if (b.folderId !== null) {
    const n = toInt(b.folderId);
    if (n === undefined) throw new HttpError(422, "folderId must be an integer or null");
    dest = n;
  }
  const moved: Record<string, unknown>[] = [];
  const failed: ReturnType<typeof failure>[] = [];
  for (const ref of refs) {
    try {
      moved.push(serialiseItem(st, moveOne(st, Number(d.id), ref, dest)));
    } catch (e) {
      failed.push(failure(ref, e));
    }
  }
  return ok({ moved, failed });
}

function bulkDelete({ st, params, body }: Ctx) {
  const d = findDeployment(st, params.deploymentId);
  const refs = parseRefs(requireObjectBody(body).items);
  const deleted: Ref[] = [];
  const failed: ReturnType<typeof failure>[] = [];
  for (const ref of refs) {
    try {
      deleteItemDeep(st, getItem(st, Number(d.id), ref.id, ref.type));
      deleted.push(ref);
    } catch (e) {
      failed.push(failure(ref, e));
    }
  }
  return ok({ deleted, failed });
}

function createFolder({ st, params, body }: Ctx) {
  const d = findDeployment(st, params.deploymentId);
  const depId = Number(d.id);
  const b = requireObjectBody(body);
  if (typeof b.name !== "string" || b.name.trim() === "") throw new HttpError(422, "name is required");
  const parentRaw = b.folderId !== undefined ? b.folderId : b.parentId;
  let parent: number | null = null;
  if (parentRaw !== undefined && parentRaw !== null) {
    const n = toInt(parentRaw);
    if (n === undefined) throw new HttpError(422, "folderId must be an integer or null");
    parent = getItem(st, depId, n, "FOLDER").id;
  }
  const now = new Date();
  const f: Item = {
    id: nextItemId(st),
    deploymentId: depId,
    name: b.name,
    type: "FOLDER",
    meta: isObject(b.meta) ? b.meta : {},
    calculatedFields: {},
    createdAt: now,
    updatedAt: now,
    createdBy: st.callerUserId,
    userId: st.callerUserId,
    folderId: parent,
    slug: null,
    isFavorite: null,
    workbookId: null,
    dashboardId: null,
  };
  st.items.set(f.id, f);
  return ok(serialiseItem(st, f), 201);
}

const SORTS = ["createdAt", "updatedAt", "lastViewedAt", "name"];

function listReports({ st, params, query }: Ctx) {
  const d = findDeployment(st, params.deploymentId);
  const folder = folderFilter(query);
  const search = (query.get("search") ?? "").trim().toLowerCase();
  const ext = query.get("externalWorkbookId");
  const sortBy = query.get("sortBy");
  if (sortBy !== null && !SORTS.includes(sortBy)) throw new HttpError(422, `sortBy must be one of ${SORTS.join(", ")}`);
  const all = itemsOf(st, Number(d.id)).filter(
    (i) => i.type === "REPORT" && (folder === undefined || i.folderId === folder) && (!search || i.name.toLowerCase().includes(search)) && !ext,
  );
  if (!sortBy) return ok(listPage(st, all, query));
  if (sortBy === "lastViewedAt") {
    if (query.has("first") || query.has("after")) throw new HttpError(422, "cursor pagination is not available when sorting by lastViewedAt");
    const items = all.sort((a, b) => b.id - a.id).map((i) => serialiseItem(st, i));
    return ok({ items, data: items, count: items.length, pageInfo: null });
  }
  const key = (i: Item) =>
    `${sortBy === "name" ? i.name : (sortBy === "createdAt" ? i.createdAt : i.updatedAt).toISOString()}\u0000${String(i.id).padStart(12, "0")}`;
  const sorted = all.sort((a, b) => strAsc(key(a), key(b)));
  const page = cursorPage(sorted, key, strAsc, query);
  const items = page.items.map((i) => serialiseItem(st, i));
  return ok({ items, data: items, count: sorted.length, pageInfo: page.pageInfo });
}

const base = "/api/v1/deployments/:deploymentId";

export const workspaceRoutes: Route[] = [
  { method: "POST", path: `${base}/workspace/bulk-move`, style: "platform", handler: bulkMove },
  { method: "POST", path: `${base}/workspace/bulk-delete`, style: "platform", handler: bulkDelete },
  {
    method: "GET",
    path: `${base}/folders`,
    style: "platform",
    handler: ({ st, params, query }) => {
      const d = findDeployment(st, params.deploymentId);
      const parent = folderFilter(query);
      const all = itemsOf(st, Number(d.id)).filter((i) => i.type === "FOLDER" && (parent === undefined || i.folderId === parent));
      return ok(listPage(st, all, query));
    },
  },
  { method: "POST", path: `${base}/folders`, style: "platform", handler: createFolder },
  {
    method: "DELETE",
    path: `${base}/folders/:folderId`,
    style: "platform",
    handler: ({ st, params }) => {
      const d = findDeployment(st, params.deploymentId);
      deleteItemDeep(st, getItem(st, Number(d.id), params.folderId, "FOLDER"));
      return noContent();
    },
  },
  { method: "GET", path: `${base}/reports`, style: "platform", handler: listReports },
];
