// E8 list, E9 get, E10 clone, E11 upsert by slug.
import { randomBytes } from "node:crypto";
import { normaliseDashboardConfig, remapReportIds, serialiseItem } from "./dashboard.js";
import { cursorPage, HttpError, isObject, numDesc, ok, toBool, toInt } from "./http-util.js";
import type { Ctx, Route } from "./router.js";
import { findDeployment, getItem, itemsOf, nextItemId, type Item, type State } from "./store.js";

/** Parses the folderId filter: undefined = no filter, null = root. */
export function folderFilter(q: URLSearchParams): number | null | undefined {
  const raw = q.get("folderId");
  if (raw === null) return undefined;
  if (raw === "" || raw === "null") return null;
  const n = toInt(raw);
  if (n === undefined || n < 0) throw new HttpError(422, "folderId must be an integer >= 0 or null");
  return n === 0 ? null : n;
}

export function listPage(st: State, all: Item[], q: URLSearchParams): Record<string, unknown> {
  const sorted = [...all].sort((a, b) => b.id - a.id);
  const page = cursorPage(sorted, (i) => i.id, numDesc, q);
  const items = page.items.map((i) => serialiseItem(st, i));
  return { items, data: items, count: sorted.length, pageInfo: page.pageInfo };
}

function listWorkbooks({ st, params, query }: Ctx) {
  const d = findDeployment(st, params.deploymentId);
  const folder = folderFilter(query);
  const all = itemsOf(st, Number(d.id)).filter((i) => folder === undefined || i.folderId === folder);
  return ok(listPage(st, all, query));
}

function cloneWorkbook({ st, params, body }: Ctx) {
  const d = findDeployment(st, params.deploymentId);
  const depId = Number(d.id);
  let shared = false;
  if (body !== undefined && body !== null) {
    if (!isObject(body)) throw new HttpError(422, "body must be an object");
    if (body.shared !== undefined && body.shared !== null) {
      const s = toBool(body.shared);
      if (s === undefined) throw new HttpError(422, "shared must be a boolean");
      shared = s;
    }
  }
  if (shared) throw new HttpError(403, "cloning from the shared workspace requires a creator-mode embed session", "creator_mode_required");
  const src = getItem(st, depId, params.workbookId, "WORKBOOK");
  const count = itemsOf(st, depId).filter((i) => i.type === "WORKBOOK").length;
  if (count >= d.workbookLimit) throw new HttpError(400, `workbook limit of the plan (${d.workbookLimit}) reached`, "workbook_limit_reached");
  const now = new Date();
  const folderId = src.folderId !== null && st.items.has(src.folderId) ? src.folderId : null;
  const copy: Item = {
    ...structuredClone({ ...src, report: undefined }),
    id: nextItemId(st),
    name: `Copy of ${src.name}`,
    createdAt: now,
    updatedAt: now,
    createdBy: st.callerUserId,
    userId: st.callerUserId,
    folderId,
    slug: null,
    isFavorite: null,
    dashboardId: null,
    workbookId: null,
  };
  st.items.set(copy.id, copy);
  const map = new Map<number, number>();
  for (const r of [...st.items.values()]) {
    if (r.type !== "REPORT" || r.workbookId !== src.id) continue;
    const rc: Item = {
      ...structuredClone(r),
      id: nextItemId(st),
      folderId,
      workbookId: copy.id,
      createdAt: now,
      updatedAt: now,
      createdBy: st.callerUserId,
      userId: st.callerUserId,
      slug: null,
      isFavorite: null,
    };
    st.items.set(rc.id, rc);
    map.set(r.id, rc.id);
  }
  if (isObject(copy.meta.dashboardDraft)) copy.meta.dashboardDraft = remapReportIds(copy.meta.dashboardDraft, map);
  const dash = src.dashboardId !== null ? st.dashboards.get(src.dashboardId) : undefined;
  if (dash) {
    st.seq.dashboard += 3;
    st.seq.version += 11;
    st.dashboards.set(st.seq.dashboard, {
      ...structuredClone(dash),
      id: st.seq.dashboard,
      publicId: `pd_${randomBytes(6).toString("hex")}`,
      workbookId: copy.id,
      allowEmbed: false,
      config: remapReportIds(dash.config, map) as Record<string, unknown>,
      versionNumber: 1,
      versionId: st.seq.version,
      createdBy: st.callerUserId,
      reportSnapshots: dash.reportSnapshots.map((s) => {
        st.seq.snapshot += 5;
        const rid = typeof s.reportId === "number" ? (map.get(s.reportId) ?? s.reportId) : s.reportId;
        return { ...structuredClone(s), id: st.seq.snapshot, reportId: rid, versionNumber: 1 };
      }),
    });
    copy.dashboardId = st.seq.dashboard;
  }
  return ok(serialiseItem(st, copy));
}

interface UpsertInput {
  name?: string;
  folderId?: number | null;
  meta?: Record<string, unknown>;
}

function parseUpsert(body: unknown): UpsertInput {
  if (body === undefined || body === null) return {};
  if (!isObject(body)) throw new HttpError(422, "body must be an object");
  const out: UpsertInput = {};
  if (body.name !== undefined) {
    if (typeof body.name !== "string" || body.name.trim() === "") throw new HttpError(422, "name must be a non-empty string");
    out.name = body.name;
  }
  if (body.folderId !== undefined) {
    if (body.folderId === null) out.folderId = null;
    else {
      const n = toInt(body.folderId);
      if (n === undefined || n < 0) throw new HttpError(422, "folderId must be an integer or null");
      out.folderId = n === 0 ? null : n;
    }
  }
  if (body.meta !== undefined) {
    if (!isObject(body.meta)) throw new HttpError(422, "meta must be an object");
    const meta = structuredClone(body.meta);
    if (meta.dashboardDraft !== undefined && meta.dashboardDraft !== null) {
      meta.dashboardDraft = normaliseDashboardConfig(meta.dashboardDraft, "meta.dashboardDraft");
    }
    out.meta = meta;
  }
  return out;
}

const slugHolder = (st: State, depId: number, slug: string): Item | undefined => itemsOf(st, depId).find((i) => i.slug === slug);

async function upsertBySlug({ st, params, body }: Ctx) {
  const d = findDeployment(st, params.deploymentId);
  const depId = Number(d.id);
  const slug = params.slug.trim().toLowerCase();
  if (slug === "" || slug.length > 200) throw new HttpError(422, "slug must be 1-200 characters after trimming");
  const input = parseUpsert(body);
  // Decide and access-check.
  const existing = slugHolder(st, depId, slug);
  if (input.folderId !== undefined && input.folderId !== null) getItem(st, depId, input.folderId, "FOLDER");
  // Window in which other writers may interleave.
  await new Promise((r) => setTimeout(r, 2));
  const now = slugHolder(st, depId, slug);
  if (now?.id !== existing?.id) {
    throw new HttpError(409, "the workbook holding this slug was created or deleted concurrently; retry", "upsert_branch_changed");
  }
  if (input.folderId !== undefined && input.folderId !== null) getItem(st, depId, input.folderId, "FOLDER");
  if (existing) {
    const before = JSON.stringify([existing.name, existing.folderId, existing.meta]);
    if (input.name !== undefined) existing.name = input.name;
    if (input.folderId !== undefined) existing.folderId = input.folderId;
    if (input.meta) {
      for (const [k, v] of Object.entries(input.meta).filter(([k]) => k !== "__proto__")) {
        if (v === null) delete existing.meta[k];
        else existing.meta[k] = v;
      }
    }
    if (JSON.stringify([existing.name, existing.folderId, existing.meta]) !== before) existing.updatedAt = new Date();
    return ok(serialiseItem(st, existing));
  }
  const t = new Date();
  const meta: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input.meta ?? {}).filter(([k]) => k !== "__proto__")) if (v !== null) meta[k] = v;
  const created: Item = {
    id: nextItemId(st),
    deploymentId: depId,
    name: input.name ?? slug,
    type: "WORKBOOK",
    meta,
    calculatedFields: {},
    createdAt: t,
    updatedAt: t,
    createdBy: st.callerUserId,
    userId: st.callerUserId,
    folderId: input.folderId ?? null,
    slug,
    isFavorite: null,
    workbookId: null,
    dashboardId: null,
  };
  st.items.set(created.id, created);
  return ok(serialiseItem(st, created));
}

const wb = "/api/v1/deployments/:deploymentId/workbooks";

export const workbookRoutes: Route[] = [
  { method: "GET", path: wb, style: "platform", handler: listWorkbooks },
  { method: "PUT", path: `${wb}/by-slug/:slug`, style: "platform", handler: upsertBySlug },
  {
    method: "GET",
    path: `${wb}/:workbookId`,
    style: "platform",
    handler: ({ st, params }) => {
      const d = findDeployment(st, params.deploymentId);
      return ok(serialiseItem(st, getItem(st, Number(d.id), params.workbookId)));
    },
  },
  { method: "POST", path: `${wb}/:workbookId/duplicate`, style: "platform", handler: cloneWorkbook },
];
