// E12 bulk move, bulk delete, folders (list/get/create/delete), reports list.
import { accessTo, atLeast, deploymentFor, folderAccess, requireRole } from "./auth.js";
import type { AppRouter, Call } from "./ctx.js";
import { HttpError, bad, created, fInt, fStr, forbidden, invalid, isObj, notFound, objBody, ok, qEnum, wrap } from "./http.js";
import type { Json, Reply } from "./http.js";
import { cursorPage, noOffset } from "./paging.js";
import { folderJson, reportJson, workbookJson } from "./serialize.js";
import { newItem } from "./seed-workspace.js";
import { ITEM_TYPES } from "./store.js";
import type { Item, ItemType } from "./store.js";
import { MAX_FOLDER_DEPTH, byNewest, deleteOne, depthOf, isFailure, itemIn, moveOne, parseId } from "./workspace.js";

export const MAX_BULK = 100;

function parseItems(b: Json, allowEmpty: boolean): Array<{ type: ItemType; id: number }> {
  const raw = b["items"];
  if (raw === undefined) throw invalid("items is required");
  if (!Array.isArray(raw)) throw invalid("items must be an array");
  if (raw.length > MAX_BULK) throw invalid(`items may hold at most ${MAX_BULK} entries`);
  if (!allowEmpty && raw.length === 0) throw invalid("items must hold at least one entry");
  const out: Array<{ type: ItemType; id: number }> = [];
  const seen = new Set<string>();
  raw.forEach((it: unknown, i: number) => {
    if (!isObj(it)) throw invalid(`items[${i}] must be an object {type, id}`);
    const type = it["type"];
    if (typeof type !== "string" || !(ITEM_TYPES as readonly string[]).includes(type))
      throw invalid(`items[${i}].type must be one of ${ITEM_TYPES.join(", ")}`);
    const id = it["id"];
    if (typeof id !== "number" || !Number.isInteger(id)) throw invalid(`items[${i}].id must be an integer`);
    const k = `${type}:${id}`;
    if (!seen.has(k)) {
      seen.add(k);
      out.push({ type: type as ItemType, id });
    }
  });
  return out;
}

function bulkMove(c: Call): Reply {
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const b = objBody(c.body);
  const items = parseItems(b, true);
  if (!("folderId" in b)) throw invalid("folderId is required (an integer, or null for the workspace root)");
  const dest = fInt(b, "folderId", true, true) as number | null;
  const moved: Json[] = [];
  const failed: Json[] = [];
  for (const it of items) {
    const r = moveOne(c.store, c.p, d, it.type, it.id, dest);
    if (isFailure(r)) failed.push({ type: it.type, id: it.id, error: { message: r.message, status: r.status } });
    else moved.push(workbookJson(c.store, r, c.p));
  }
  return ok({ moved, failed });
}

function bulkDelete(c: Call): Reply {
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const items = parseItems(objBody(c.body), false);
  const deleted: Json[] = [];
  const failed: Json[] = [];
  for (const it of items) {
    const r = deleteOne(c.store, c.p, d, it.type, it.id);
    if (isFailure(r)) failed.push({ type: it.type, id: it.id, error: { status: r.status, message: r.message } });
    else deleted.push({ type: it.type, id: it.id });
  }
  return ok({ deleted, failed });
}

function byNameDesc(a: Item, b: Item): number {
  return a.name < b.name ? 1 : a.name > b.name ? -1 : b.id - a.id;
}

function listFolders(c: Call): Reply {
  noOffset(c.q);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const raw = c.q.get("parentId");
  let parent: number | undefined;
  if (raw !== null && raw !== "" && raw !== "null") {
    if (!/^\d+$/.test(raw)) throw bad("query parameter parentId must be an integer");
    parent = Number(raw);
    const f = itemIn(c.store, d, parent);
    if (!f || f.type !== "FOLDER") throw notFound(`folder ${raw} not found`);
  }
  const all = c.store
    .itemsOf(d.id)
    .filter((i) => i.type === "FOLDER" && i.folderId === parent && atLeast(accessTo(c.store, c.p, i), "read"))
    .sort(byNameDesc);
  const page = cursorPage(all, c.q, `folders:${d.id}:${parent ?? "root"}`);
  const rows = page.rows.map((f) => folderJson(c.store, f));
  return ok({ items: rows, pageInfo: page.pageInfo, data: rows, count: all.length });
}

function folderOr404(c: Call): Item {
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const id = parseId(c.params["folderId"], "folder");
  const f = itemIn(c.store, d, id);
  if (!f || f.type !== "FOLDER") throw notFound(`folder ${id} not found in deployment ${d.id}`);
  return f;
}

function getFolder(c: Call): Reply {
  const f = folderOr404(c);
  if (!atLeast(accessTo(c.store, c.p, f), "read")) throw forbidden(`you have no access to folder ${f.id}`);
  return wrap(folderJson(c.store, f));
}

function createFolder(c: Call): Reply {
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  requireRole(c.p, "AI_BI_USER", "creating a folder");
  const b = objBody(c.body);
  const name = fStr(b, "name", true)!.trim();
  if (name === "" || name.length > 255) throw invalid("name must be 1..255 characters");
  const parentId = fInt(b, "parentId", false, true) ?? undefined;
  const position = fInt(b, "position", false) ?? undefined;
  if (position !== undefined && position < 0) throw invalid("position must be >= 0");
  if (parentId !== undefined) {
    const parent = itemIn(c.store, d, parentId);
    if (!parent || parent.type !== "FOLDER") throw invalid(`parentId ${parentId} does not reference a folder of this deployment`);
  }
  if (!atLeast(folderAccess(c.store, c.p, parentId), "edit")) throw forbidden("you need edit or manage access to the parent folder");
  if (depthOf(c.store, parentId) + 1 > MAX_FOLDER_DEPTH) throw bad(`folders can be nested at most ${MAX_FOLDER_DEPTH} levels deep`);
  const siblings = c.store.itemsOf(d.id).filter((i) => i.type === "FOLDER" && i.folderId === parentId);
  const f = newItem(c.store, {
    deploymentId: d.id,
    type: "FOLDER",
    name,
    folderId: parentId,
    position: position ?? siblings.length,
    ownerId: c.p.user.id,
    createdBy: c.p.user.id,
  });
  return created(folderJson(c.store, f), `/api/v1/deployments/${d.id}/folders/${f.id}`);
}

function deleteFolder(c: Call): Reply {
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const f = folderOr404(c);
  const r = deleteOne(c.store, c.p, d, "FOLDER", f.id);
  if (isFailure(r)) throw new HttpError(r.status, r.message);
  return wrap({ type: "FOLDER", id: f.id, deleted: true });
}

export const REPORT_SORTS = ["createdAt", "updatedAt", "lastViewedAt", "name"] as const;

function listReports(c: Call): Reply {
  noOffset(c.q);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const sortBy = qEnum(c.q, "sortBy", REPORT_SORTS) ?? "createdAt";
  const order = qEnum(c.q, "sortOrder", ["asc", "desc"] as const) ?? "desc";
  if (sortBy === "lastViewedAt" && (c.q.has("first") || c.q.has("after"))) throw bad("cursor pagination is not available when sorting by lastViewedAt");
  const rawF = c.q.get("folderId");
  let folder: number | "root" | undefined;
  if (rawF !== null) {
    if (rawF === "null" || rawF === "" || rawF === "0") folder = "root";
    else if (/^\d+$/.test(rawF)) folder = Number(rawF);
    else throw bad("query parameter folderId must be an integer or null");
  }
  const ext = c.q.get("externalWorkbookId");
  const search = (c.q.get("search") ?? "").trim().toLowerCase();
  const key = (i: Item): string => (sortBy === "name" ? i.name.toLowerCase() : sortBy === "lastViewedAt" ? (i.lastViewedAt ?? "") : i[sortBy]);
  const all = c.store
    .itemsOf(d.id)
    .filter((i) => i.type === "REPORT")
    .filter((i) => folder === undefined || (folder === "root" ? i.folderId === undefined : i.folderId === folder))
    .filter((i) => ext === null || i.externalWorkbookId === ext)
    .filter((i) => search === "" || i.name.toLowerCase().includes(search))
    .filter((i) => atLeast(accessTo(c.store, c.p, i), "read"))
    .sort((a, b) => {
      const ka = key(a),
        kb = key(b);
      const r = ka < kb ? -1 : ka > kb ? 1 : byNewest(b, a);
      return order === "asc" ? r : -r;
    });
  if (sortBy === "lastViewedAt") {
    const rows = all.map((i) => reportJson(c.store, i, c.p));
    return ok({ items: rows, pageInfo: { hasNextPage: false, hasPreviousPage: false }, data: rows, count: all.length });
  }
  const page = cursorPage(all, c.q, `reports:${d.id}:${sortBy}:${order}:${rawF ?? ""}:${ext ?? ""}:${search}`);
  const rows = page.rows.map((i) => reportJson(c.store, i, c.p));
  return ok({ items: rows, pageInfo: page.pageInfo, data: rows, count: all.length });
}

export function registerWorkspace(r: AppRouter): void {
  r.add("POST", "/api/v1/deployments/{deploymentId}/workspace/bulk-move", bulkMove);
  r.add("POST", "/api/v1/deployments/{deploymentId}/workspace/bulk-delete", bulkDelete);
  r.add("GET", "/api/v1/deployments/{deploymentId}/folders", listFolders);
  r.add("POST", "/api/v1/deployments/{deploymentId}/folders", createFolder);
  r.add("GET", "/api/v1/deployments/{deploymentId}/folders/{folderId}", getFolder);
  r.add("DELETE", "/api/v1/deployments/{deploymentId}/folders/{folderId}", deleteFolder);
  r.add("GET", "/api/v1/deployments/{deploymentId}/reports", listReports);
}
