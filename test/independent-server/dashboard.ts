// DashboardConfig validation/normalisation and Workbook serialisation.
import { HttpError, isObject } from "./http-util.js";
import type { Dashboard, Item, State } from "./store.js";

const WIDGET_TYPES = new Set(["CHART", "TEXT", "FILTER", "AI", "TIME_GRAIN", "PARENT", "SPACER", "DIVIDER", "CONTAINER"]);
const BREAKPOINTS = ["lg", "md", "sm", "xs", "xxs"];

function bad(path: string, msg: string): never {
  throw new HttpError(422, `${path}: ${msg}`);
}

const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);

function checkPosition(v: unknown, path: string): void {
  if (!isObject(v)) bad(path, "must be an object with integer x, y, w, h");
  for (const k of ["x", "y", "w", "h"]) if (!isInt(v[k])) bad(`${path}.${k}`, "must be an integer");
}

function checkBreakpointObject(v: unknown, path: string, each: (x: unknown, p: string) => void): void {
  if (v === null || v === undefined) return;
  if (!isObject(v)) bad(path, "must be an object");
  for (const k of BREAKPOINTS) if (v[k] !== undefined && v[k] !== null) each(v[k], `${path}.${k}`);
}

function optString(v: unknown, path: string): void {
  if (v !== undefined && v !== null && typeof v !== "string") bad(path, "must be a string or null");
}

function optObject(v: unknown, path: string): void {
  if (v !== undefined && v !== null && !isObject(v)) bad(path, "must be an object or null");
}

/** Validates a DashboardConfig and returns a normalised deep copy (TABS_CONTAINER converted). */
export function normaliseDashboardConfig(v: unknown, path = "dashboardDraft"): Record<string, unknown> | null {
  if (v === null) return null;
  if (!isObject(v)) bad(path, "must be an object or null");
  const cfg = structuredClone(v) as Record<string, unknown>;
  if (cfg.kind !== undefined && cfg.kind !== null && cfg.kind !== "CLASSIC" && cfg.kind !== "APP") bad(`${path}.kind`, "must be CLASSIC or APP");
  optString(cfg.title, `${path}.title`);
  optString(cfg.description, `${path}.description`);
  optObject(cfg.settings, `${path}.settings`);
  optObject(cfg.theme, `${path}.theme`);
  if (cfg.layout !== undefined && cfg.layout !== null) {
    const l = cfg.layout;
    if (!isObject(l)) bad(`${path}.layout`, "must be an object or null");
    const intOrNull = (x: unknown, p: string) => {
      if (!isInt(x)) bad(p, "must be an integer or null");
    };
    checkBreakpointObject(l.breakpoints, `${path}.layout.breakpoints`, intOrNull);
    checkBreakpointObject(l.cols, `${path}.layout.cols`, intOrNull);
    for (const k of ["containerPadding", "margin"]) {
      const a = l[k];
      if (a !== undefined && a !== null && (!Array.isArray(a) || !a.every(isInt))) bad(`${path}.layout.${k}`, "must be an array of integers");
    }
    if (l.rowHeight !== undefined && l.rowHeight !== null && !isInt(l.rowHeight)) bad(`${path}.layout.rowHeight`, "must be an integer");
  }
  if (cfg.app !== undefined && cfg.app !== null) {
    const a = cfg.app;
    if (!isObject(a)) bad(`${path}.app`, "must be an object or null");
    optString(a.entry, `${path}.app.entry`);
    if (typeof a.entry === "string" && a.entry.length > 255) bad(`${path}.app.entry`, "must be at most 255 characters");
    optString(a.html, `${path}.app.html`);
    if (a.files !== undefined && a.files !== null) {
      if (!isObject(a.files) || !Object.values(a.files).every((x) => typeof x === "string")) bad(`${path}.app.files`, "must map strings to strings");
    }
    if (a.manifest !== undefined && a.manifest !== null) {
      const m = a.manifest;
      if (!isObject(m)) bad(`${path}.app.manifest`, "must be an object");
      if (m.version !== undefined && m.version !== null && !isInt(m.version)) bad(`${path}.app.manifest.version`, "must be an integer");
      if (m.dependencies !== undefined && m.dependencies !== null) {
        if (!isObject(m.dependencies) || !Object.values(m.dependencies).every((x) => typeof x === "string"))
          bad(`${path}.app.manifest.dependencies`, "must map strings to strings");
      }
    }
  }
  if (cfg.widgets !== undefined && cfg.widgets !== null) {
    if (!Array.isArray(cfg.widgets)) bad(`${path}.widgets`, "must be an array");
    cfg.widgets.forEach((w: unknown, i: number) => normaliseWidget(w, `${path}.widgets[${i}]`));
  }
  return cfg;
}

function normaliseWidget(w: unknown, path: string): void {
  if (!isObject(w)) bad(path, "must be an object");
  if (typeof w.id !== "string") bad(`${path}.id`, "must be a string");
  if (w.type === "TABS_CONTAINER") {
    w.type = "CONTAINER";
    w.config = { ...(isObject(w.config) ? w.config : {}), layout: "tabs" };
  }
  if (typeof w.type !== "string" || !WIDGET_TYPES.has(w.type)) bad(`${path}.type`, "unknown widget type");
  checkPosition(w.position, `${path}.position`);
  checkBreakpointObject(w.responsiveLayouts, `${path}.responsiveLayouts`, checkPosition);
  optObject(w.config, `${path}.config`);
  optObject(w.style, `${path}.style`);
}

/** Rewrites every `reportId` in widget configs using the given map. */
export function remapReportIds(cfg: unknown, map: Map<number, number>): unknown {
  if (!isObject(cfg)) return cfg;
  const copy = structuredClone(cfg);
  const widgets = copy.widgets;
  if (Array.isArray(widgets)) {
    for (const w of widgets) {
      if (isObject(w) && isObject(w.config) && typeof w.config.reportId === "number") {
        const to = map.get(w.config.reportId);
        if (to !== undefined) w.config.reportId = to;
      }
    }
  }
  return copy;
}

function dateOnly(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function serialiseDashboard(d: Dashboard): Record<string, unknown> {
  return {
    id: d.id,
    publicId: d.publicId,
    deploymentId: d.deploymentId,
    workbookId: d.workbookId,
    status: d.status,
    allowEmbed: d.allowEmbed,
    config: d.config,
    versionNumber: d.versionNumber,
    versionId: d.versionId,
    reportSnapshots: d.reportSnapshots,
    createdBy: d.createdBy,
    title: d.title,
    description: d.description,
  };
}

/** Ancestors of the containing folder, nearest first (the containing folder itself excluded). */
function folderPath(st: State, it: Item): { id: number; name: string }[] | undefined {
  if (it.folderId === null) return undefined;
  const out: { id: number; name: string }[] = [];
  const seen = new Set<number>();
  let cur = st.items.get(it.folderId);
  let parentId = cur ? cur.folderId : null;
  while (parentId !== null && !seen.has(parentId)) {
    seen.add(parentId);
    cur = st.items.get(parentId);
    if (!cur) break;
    out.push({ id: cur.id, name: cur.name });
    parentId = cur.folderId;
  }
  return out;
}

export function serialiseItem(st: State, it: Item): Record<string, unknown> {
  const user = it.userId !== null ? st.users.get(it.userId) : undefined;
  const out: Record<string, unknown> = {
    id: it.id,
    deploymentId: it.deploymentId,
    name: it.name,
    type: it.type,
    meta: it.meta,
    calculatedFields: it.calculatedFields,
    createdAt: dateOnly(it.createdAt),
    updatedAt: it.updatedAt.toISOString(),
    createdBy: it.createdBy,
    userId: it.userId,
    user: user ? { id: user.id, email: user.email, firstName: user.firstName, picture: user.picture } : null,
    folderId: it.folderId,
  };
  const fp = folderPath(st, it);
  if (fp) out.folderPath = fp;
  if (it.isFavorite !== null) out.isFavorite = it.isFavorite;
  if (it.slug !== null) out.slug = it.slug;
  if (it.type === "WORKBOOK") {
    const draft = it.meta.dashboardDraft;
    out.dashboardDraft = isObject(draft) ? draft : null;
    const dash = it.dashboardId !== null ? st.dashboards.get(it.dashboardId) : undefined;
    out.dashboardPublished = dash ? dash.config : null;
    if (dash) out.publishedDashboard = serialiseDashboard(dash);
  }
  return out;
}
