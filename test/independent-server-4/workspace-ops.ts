import type { Store } from "./store.js";
import type { Dashboard, DashboardConfig, Deployment, Item, ItemType } from "./types.js";
import { type Caller, accessTo, findItem, hasAccess, requireRole } from "./access.js";
import { HttpError, badRequest, clone, delay, forbidden, iso, isPlainObject, notFound, uuid } from "./util.js";
import { MAIN } from "./seed-workspace.js";

function mapConfig(cfg: DashboardConfig | null, ids: Map<number, number>): DashboardConfig | null {
  if (!cfg) return null;
  const out = clone(cfg);
  for (const w of out.widgets ?? []) {
    const conf = w.config as Record<string, unknown> | null | undefined;
    if (conf && typeof conf.reportId === "number" && ids.has(conf.reportId)) conf.reportId = ids.get(conf.reportId);
  }
  return out;
}

function checkLimit(s: Store, d: Deployment): void {
  const count = [...s.items.values()].filter((i) => i.deploymentId === d.id && i.type === "WORKBOOK").length;
  if (d.workbookLimit !== null && count >= d.workbookLimit) {
    throw badRequest(`Workbook limit of the plan reached (${d.workbookLimit})`, "workbook_limit_reached");
  }
}

function newItem(s: Store, c: Caller, d: Deployment, type: ItemType, name: string, folderId: number | null, extra: Partial<Item> = {}): Item {
  const now = iso();
  const it: Item = {
    id: s.nextId(),
    deploymentId: d.id,
    workspace: c.workspace,
    type,
    name,
    meta: {},
    calculatedFields: {},
    createdAt: now,
    updatedAt: now,
    createdBy: c.user.id,
    ownerId: c.user.id,
    folderId,
    slug: null,
    dashboardDraft: null,
    publishedDashboardId: null,
    policies: [],
    ...extra,
  };
  s.items.set(it.id, it);
  return it;
}

function publish(s: Store, c: Caller, wb: Item, from: Dashboard, ids: Map<number, number>, fromShared: boolean): void {
  const id = s.nextId();
  const dash: Dashboard = {
    ...clone(from),
    id,
    publicId: uuid(),
    workbookId: wb.id,
    deploymentId: wb.deploymentId,
    allowEmbed: false,
    config: mapConfig(from.config, ids) ?? {},
    versionNumber: 1,
    versionId: s.nextId(),
    createdBy: c.user.id,
    status: "published",
    fromSharedWorkspace: fromShared,
    embedAccess: [],
    reportSnapshots: from.reportSnapshots.map((r) => ({ ...clone(r), id: s.nextId(), reportId: ids.get(r.reportId) ?? r.reportId, versionNumber: 1 })),
  };
  s.dashboards.set(id, dash);
  wb.publishedDashboardId = id;
}

export function cloneWorkbook(s: Store, c: Caller, d: Deployment, workbookId: number, shared: boolean): Item {
  if (shared && !c.key.creatorMode) throw forbidden("shared=true is only available to creator-mode embed sessions");
  const src = findItem(s, c, d.id, workbookId, "WORKBOOK", shared ? MAIN : c.workspace);
  requireRole(c, "ai-bi-user", "Cloning a workbook");
  const ids = new Map<number, number>();
  if (shared) {
    const dash = src.publishedDashboardId !== null ? s.dashboards.get(src.publishedDashboardId) : undefined;
    if (!dash || dash.status !== "published") throw badRequest("The shared workbook has no published dashboard", "no_published_dashboard");
    const rule = dash.embedAccess.find((a) => a.embedTenantId === c.key.embedTenantId) ?? dash.embedAccess.find((a) => a.embedTenantId === null);
    if (!rule || rule.action === "none") throw forbidden("No read access to this shared dashboard");
    checkLimit(s, d);
    const wb = newItem(s, c, d, "WORKBOOK", `Copy of ${src.name}`, null, { calculatedFields: clone(src.calculatedFields) });
    for (const snap of dash.reportSnapshots) {
      const name = (snap.name ?? snap.title ?? `Report ${snap.reportId}`) as string;
      const r = newItem(s, c, d, "REPORT", name, null, {
        workbookId: wb.id,
        publicId: uuid(),
        kind: (snap.kind as string) ?? null,
        sqlQuery: (snap.sqlQuery as string) ?? null,
        lastViewedAt: null,
        placements: [],
      });
      ids.set(snap.reportId, r.id);
    }
    publish(s, c, wb, dash, ids, true);
    wb.dashboardDraft = mapConfig(dash.config, ids);
    return wb;
  }
  if (!hasAccess(s, c, src, "read")) throw forbidden("No read access to the source workbook");
  checkLimit(s, d);
  const folder = src.folderId !== null ? (s.items.get(src.folderId) ?? null) : null;
  const place = folder && hasAccess(s, c, folder, "edit") ? folder.id : null;
  const wb = newItem(s, c, d, "WORKBOOK", `Copy of ${src.name}`, place, {
    meta: clone(src.meta),
    calculatedFields: clone(src.calculatedFields),
  });
  for (const r of [...s.items.values()].filter((i) => i.type === "REPORT" && i.workbookId === src.id)) {
    const copy = newItem(s, c, d, "REPORT", r.name, place, {
      meta: clone(r.meta),
      calculatedFields: clone(r.calculatedFields),
      workbookId: wb.id,
      publicId: uuid(),
      kind: r.kind ?? null,
      sqlQuery: r.sqlQuery ?? null,
      lastViewedAt: null,
      placements: [],
    });
    ids.set(r.id, copy.id);
  }
  wb.dashboardDraft = mapConfig(src.dashboardDraft, ids);
  const dash = src.publishedDashboardId !== null ? s.dashboards.get(src.publishedDashboardId) : undefined;
  if (dash) publish(s, c, wb, dash, ids, false);
  return wb;
}

export function normalizeSlug(raw: string): string {
  const slug = raw.trim().toLowerCase();
  if (!slug) throw badRequest("Slug must not be empty", "invalid_slug");
  if (slug.length > 255) throw badRequest("Slug must be at most 255 characters", "invalid_slug");
  return slug;
}

export interface UpsertBody {
  name?: string;
  folderId?: number | null;
  meta?: Record<string, unknown>;
}

function checkDestination(s: Store, c: Caller, d: Deployment, folderId: number | null): void {
  if (folderId === null) {
    if (!hasAccess(s, c, null, "edit")) throw forbidden("No edit access to the workspace root");
    return;
  }
  const f = s.items.get(folderId);
  if (!f || f.type !== "FOLDER" || f.deploymentId !== d.id || f.workspace !== c.workspace) throw notFound(`Folder ${folderId}`);
  if (!hasAccess(s, c, f, "edit")) throw forbidden(`No edit access to folder ${folderId}`);
}

const bySlug = (s: Store, d: Deployment, slug: string): Item | undefined =>
  [...s.items.values()].find((i) => i.deploymentId === d.id && i.type === "WORKBOOK" && i.slug === slug);

export async function upsertBySlug(
  s: Store,
  c: Caller,
  d: Deployment,
  rawSlug: string,
  body: UpsertBody,
  raceMs: number,
): Promise<{ item: Item; result: "created" | "updated" | "unchanged" }> {
  const slug = normalizeSlug(rawSlug);
  const existing = bySlug(s, d, slug);
  if (existing) {
    if (!hasAccess(s, c, existing, "edit")) throw forbidden("Edit access to the workbook is required");
    if (body.folderId !== undefined) {
      if (!hasAccess(s, c, existing, "manage")) throw forbidden("Manage access to the workbook is required to move it");
      checkDestination(s, c, d, body.folderId);
    }
  } else {
    requireRole(c, "ai-bi-user", "Creating a workbook");
    if (body.folderId !== undefined) checkDestination(s, c, d, body.folderId);
    checkLimit(s, d);
  }
  await delay(raceMs); // window in which a concurrent writer may change the decision
  const now = bySlug(s, d, slug);
  if (now !== existing) {
    throw new HttpError(409, "The workbook holding this slug was created or deleted concurrently; retry", "upsert_branch_changed");
  }
  const meta = body.meta ? { ...body.meta } : undefined;
  const draft = meta && "dashboardDraft" in meta ? (meta.dashboardDraft as Item["dashboardDraft"]) : undefined;
  if (meta) delete meta.dashboardDraft;
  if (!existing) {
    const it = newItem(s, c, d, "WORKBOOK", body.name ?? slug, body.folderId ?? null, { slug, meta: meta ?? {}, dashboardDraft: draft ?? null });
    return { item: it, result: "created" };
  }
  const before = JSON.stringify([existing.name, existing.folderId, existing.meta, existing.dashboardDraft]);
  if (body.name !== undefined) existing.name = body.name;
  if (body.folderId !== undefined) existing.folderId = body.folderId;
  if (meta) existing.meta = { ...existing.meta, ...meta };
  if (draft !== undefined) existing.dashboardDraft = draft;
  const changed = before !== JSON.stringify([existing.name, existing.folderId, existing.meta, existing.dashboardDraft]);
  if (changed) existing.updatedAt = iso();
  return { item: existing, result: changed ? "updated" : "unchanged" };
}

function isDescendant(s: Store, folderId: number, ancestorId: number): boolean {
  let cur: number | null = folderId;
  const seen = new Set<number>();
  while (cur !== null && !seen.has(cur)) {
    if (cur === ancestorId) return true;
    seen.add(cur);
    cur = s.items.get(cur)?.folderId ?? null;
  }
  return false;
}

/** Single-item move rules (used per item by bulk move). */
export function moveItem(s: Store, c: Caller, d: Deployment, type: ItemType, id: number, dest: number | null): Item {
  const it = findItem(s, c, d.id, id, type);
  if (accessTo(s, c, it) !== "manage") throw forbidden(`No manage access to ${type.toLowerCase()} ${id}`);
  checkDestination(s, c, d, dest);
  if (type === "FOLDER" && dest !== null && isDescendant(s, dest, it.id)) {
    throw badRequest("A folder cannot be moved into itself or one of its descendants", "invalid_move");
  }
  if (it.folderId !== dest) {
    it.folderId = dest;
    it.updatedAt = iso();
  }
  return it;
}

/** Single-item delete rules (used per item by bulk delete). Folders must be empty. */
export function deleteItem(s: Store, c: Caller, d: Deployment, type: ItemType, id: number): void {
  const it = findItem(s, c, d.id, id, type);
  if (accessTo(s, c, it) !== "manage") throw forbidden(`No manage access to ${type.toLowerCase()} ${id}`);
  if (type === "FOLDER" && [...s.items.values()].some((i) => i.folderId === it.id)) {
    throw badRequest(`Folder ${id} is not empty`, "folder_not_empty");
  }
  if (type === "WORKBOOK") {
    for (const r of [...s.items.values()]) if (r.type === "REPORT" && r.workbookId === it.id) r.workbookId = null;
    if (it.publishedDashboardId !== null) s.dashboards.delete(it.publishedDashboardId);
  }
  s.items.delete(it.id);
}

export { isPlainObject };
