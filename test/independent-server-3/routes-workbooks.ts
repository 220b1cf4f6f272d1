// E8 list, E9 get, E11 upsert by slug, embed-access.
import { accessCheckPause, accessTo, atLeast, deploymentFor, hasRole, requireRole } from "./auth.js";
import type { AppRouter, Call } from "./ctx.js";
import { checkConfig, normalizeConfig } from "./dashboard.js";
import { HttpError, bad, fInt, fObj, fStr, forbidden, invalid, isObj, notFound, objBody, ok, wrap } from "./http.js";
import type { Json, Reply } from "./http.js";
import { cursorPage, noOffset } from "./paging.js";
import { workbookJson } from "./serialize.js";
import type { Deployment, Item, Store } from "./store.js";
import { newItem } from "./seed-workspace.js";
import { byNewest, checkDestination, depthOf, isWithin, itemIn, parseId, MAX_FOLDER_DEPTH } from "./workspace.js";
import { cloneWorkbook } from "./clone.js";

function listWorkbooks(c: Call): Reply {
  noOffset(c.q);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const raw = c.q.get("folderId");
  let folder: number | "root" | undefined;
  if (raw !== null) {
    if (raw === "null" || raw === "" || raw === "0") folder = "root";
    else if (/^\d+$/.test(raw)) folder = Number(raw);
    else throw bad("query parameter folderId must be an integer >= 0 or null");
  }
  const pool = c.p.key.kind === "embed-session" ? [...c.store.itemsOf(d.id), ...c.store.itemsOf(d.id, "shared")] : c.store.itemsOf(d.id);
  const all = pool
    .filter((i) => folder === undefined || (folder === "root" ? i.folderId === undefined : i.folderId === folder))
    .filter((i) => atLeast(accessTo(c.store, c.p, i), "read"))
    .sort(byNewest);
  const page = cursorPage(all, c.q, `workbooks:${d.id}:${raw ?? ""}`);
  const rows = page.rows.map((i) => workbookJson(c.store, i, c.p));
  return ok({ items: rows, data: rows, count: all.length, pageInfo: page.pageInfo });
}

export function readableItem(c: Call, d: Deployment, raw: string | undefined): Item {
  const id = parseId(raw, "workbook");
  const item = itemIn(c.store, d, id) ?? (c.p.key.kind === "embed-session" ? itemIn(c.store, d, id, "shared") : undefined);
  if (!item) throw notFound(`workbook ${raw ?? ""} not found in deployment ${d.id}`);
  if (!atLeast(accessTo(c.store, c.p, item), "read")) throw forbidden(`you have no access to workbook ${item.id}`);
  return item;
}

function getWorkbook(c: Call): Reply {
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const item = readableItem(c, d, c.params["workbookId"]);
  if (!item.viewHistory.includes(c.p.user.id)) item.viewHistory.push(c.p.user.id);
  return ok(workbookJson(c.store, item, c.p));
}

function findSlug(store: Store, d: Deployment, slug: string): Item | undefined {
  return store.itemsOf(d.id).find((i) => i.slug === slug);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

async function upsertBySlug(c: Call): Promise<Reply> {
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const slug = (c.params["slug"] ?? "").trim().toLowerCase();
  if (slug === "") throw invalid("slug must not be empty");
  if (slug.length > 255) throw invalid("slug must be at most 255 characters");
  const b = objBody(c.body, true);
  const name = fStr(b, "name", false);
  if (name !== undefined && name.trim() === "") throw invalid("name must not be empty");
  const folderId = fInt(b, "folderId", false, true);
  const meta = fObj(b, "meta", false);
  let metaNorm: Json | undefined;
  if (meta) {
    metaNorm = { ...meta };
    if (meta["dashboardDraft"] !== undefined) {
      const err = checkConfig(meta["dashboardDraft"], "meta.dashboardDraft");
      if (err) throw invalid(err);
      if (isObj(meta["dashboardDraft"])) metaNorm["dashboardDraft"] = normalizeConfig(meta["dashboardDraft"]);
    }
  }
  const fail = (f: { status: number; message: string } | null): void => {
    if (!f) return;
    if (f.status === 404) throw invalid(`folderId ${String(folderId)} does not reference a folder of this deployment`);
    throw new HttpError(f.status, f.message);
  };
  // Decide create vs update and check access against that decision.
  const holder = findSlug(c.store, d, slug);
  if (holder) {
    const acc = accessTo(c.store, c.p, holder);
    if (!atLeast(acc, "edit")) throw forbidden(`you need edit access to the workbook holding slug ${slug}`);
    if (folderId !== undefined) {
      if (!atLeast(acc, "manage")) throw forbidden("moving the workbook (folderId) needs manage access");
      fail(checkDestination(c.store, c.p, d, folderId));
      if (holder.type === "FOLDER" && folderId !== null && isWithin(c.store, folderId, holder.id)) throw bad("a folder cannot be moved into itself");
    }
  } else {
    requireRole(c.p, "AI_BI_USER", "creating a workbook");
    fail(checkDestination(c.store, c.p, d, folderId ?? null));
    if (folderId !== undefined && folderId !== null && depthOf(c.store, folderId) > MAX_FOLDER_DEPTH) throw bad("folder too deep");
  }
  await accessCheckPause();
  // Re-check: the holder of the slug must not have changed while we were checking access.
  if (!c.store.deployments.has(d.id)) throw notFound(`deployment ${d.id} not found`);
  const now = findSlug(c.store, d, slug);
  if ((now?.id ?? null) !== (holder?.id ?? null)) {
    throw new HttpError(409, `the workbook holding slug "${slug}" was created or deleted concurrently; retry the request`, "upsert_branch_changed");
  }
  // Destination may have vanished during the pause: validate it again before applying.
  if (folderId !== undefined && folderId !== null) fail(checkDestination(c.store, c.p, d, folderId));
  if (holder) {
    const next = {
      name: name !== undefined ? name.trim() : holder.name,
      folderId: folderId !== undefined ? (folderId ?? undefined) : holder.folderId,
      meta: metaNorm ? { ...holder.meta, ...metaNorm } : holder.meta,
    };
    if (next.name !== holder.name || next.folderId !== holder.folderId || !same(next.meta, holder.meta)) {
      holder.name = next.name;
      holder.folderId = next.folderId;
      holder.meta = next.meta;
      if (metaNorm && "dashboardDraft" in metaNorm) {
        const dd = metaNorm["dashboardDraft"];
        holder.dashboardDraft = isObj(dd) ? dd : undefined;
      }
      holder.updatedAt = new Date().toISOString();
    }
    return ok(workbookJson(c.store, holder, c.p));
  }
  const dd = metaNorm?.["dashboardDraft"];
  const item = newItem(c.store, {
    deploymentId: d.id,
    type: "WORKBOOK",
    name: name?.trim() ?? slug,
    slug,
    folderId: folderId ?? undefined,
    meta: metaNorm ?? {},
    ownerId: c.p.user.id,
    createdBy: c.p.user.id,
    dashboardDraft: isObj(dd) ? dd : undefined,
  });
  return ok(workbookJson(c.store, item, c.p));
}

function embedAccessJson(c: Call, item: Item): Json {
  return {
    workbookId: item.id,
    allEmbedUsers: item.embedAccess.all,
    tenants: c.store.embedTenants.map((t) => ({ embedTenantId: t.id, name: t.name, action: item.embedAccess.tenants[t.id] ?? item.embedAccess.all })),
  };
}

function getEmbedAccess(c: Call): Reply {
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const item = readableItem(c, d, c.params["workbookId"]);
  if (item.type !== "WORKBOOK") throw notFound(`workbook ${item.id} not found`);
  return wrap(embedAccessJson(c, item));
}

function putEmbedAccess(c: Call): Reply {
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const item = readableItem(c, d, c.params["workbookId"]);
  if (item.type !== "WORKBOOK") throw notFound(`workbook ${item.id} not found`);
  if (!atLeast(accessTo(c.store, c.p, item), "manage") || !hasRole(c.p, "AI_BI_USER"))
    throw forbidden("changing embed access needs manage access to the workbook");
  const b = objBody(c.body);
  const action = fStr(b, "action", true)!;
  if (action !== "read" && action !== "none") throw invalid("action must be one of read, none");
  const t = b["embedTenantId"];
  if (t === undefined || t === null) {
    item.embedAccess.all = action;
    item.embedAccess.tenants = {};
  } else {
    if (typeof t !== "string") throw invalid("embedTenantId must be a string or null");
    if (!c.store.embedTenants.some((x) => x.id === t)) throw notFound(`embed tenant ${t} not found`);
    item.embedAccess.tenants[t] = action;
  }
  return wrap(embedAccessJson(c, item));
}

export function registerWorkbooks(r: AppRouter): void {
  r.add("GET", "/api/v1/deployments/{deploymentId}/workbooks", listWorkbooks);
  r.add("GET", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}", getWorkbook);
  r.add("POST", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/duplicate", cloneWorkbook);
  r.add("PUT", "/api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}", upsertBySlug);
  r.add("GET", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/embed-access", getEmbedAccess);
  r.add("PUT", "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/embed-access", putEmbedAccess);
}
