import { HttpError, ok } from "../../http.js";
import { workbookRecord } from "../../serialize.js";
import { cleanBehaviour } from "../../behaviour.js";
import { ENTRY_MAX } from "./ranges.js";
import type { DeploymentRecord, Item, Store } from "../../store.js";
import type { Fault } from "../../http.js";
import { UPSERT_CONFLICT_CODE } from "../../../core/api/operations.js";

export const isConflict = (err: unknown): err is HttpError => err instanceof HttpError && err.extra.code === UPSERT_CONFLICT_CODE;

/** A decision index that is never refreshed: the first holder seen for a slug stays the answer. */
const staleIndex = new WeakMap<Store, Map<string, Item>>();

/** upsert-409-applies: the meta of every request refused with 409, by deployment and slug: applied to each holder the slug has after it. */
const refusedMeta = new WeakMap<Store, Map<string, Record<string, unknown>[]>>();

/** Per store, the deployments deleted: upsert-into-deleted-deployment still finds them. */
const deletedDeployments = new WeakMap<Store, Map<string, DeploymentRecord>>();

/** upsert-into-deleted-deployment: a delete keeps the deployment aside, and an upsert under its id puts it back while it is handled. */
export const upsertFindsDeletedDeployments: NonNullable<Fault["handle"]> = async ({ req, app, next }) => {
  const gone = deletedDeployments.get(app.store) ?? new Map<string, DeploymentRecord>();
  deletedDeployments.set(app.store, gone);
  if (req.operation === "deleteDeployment") {
    const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
    const reply = await next();
    if (dep && !app.store.deployments.includes(dep)) gone.set(String(dep.id), dep);
    return reply;
  }
  const deleted = gone.get(req.params.deploymentId);
  if (!deleted) return next();
  app.store.deployments.push(deleted);
  try {
    return await next();
  } finally {
    app.store.deployments.splice(app.store.deployments.indexOf(deleted), 1);
  }
};

/**
 * upsert-409-applies: a refused upsert's meta applied anyway, to whichever workbook holds the slug
 * then, and again after every later upsert of the slug (a holder the check never hears of cannot hide it).
 */
export const refusedMetaAppliedLater: NonNullable<Fault["handle"]> = async ({ req, app, next }) => {
  const dep = app.b.upsertDeployment(app.store.deployments, req.params.deploymentId);
  const key = `${dep?.id}:${app.b.normaliseSlug(req.params.slug)}`;
  const refused = refusedMeta.get(app.store) ?? new Map<string, Record<string, unknown>[]>();
  refusedMeta.set(app.store, refused);
  const applyRefused = () => {
    const holder = dep && app.b.decisionHolder(app.store, dep.id, app.b.normaliseSlug(req.params.slug));
    if (holder) for (const meta of refused.get(key) ?? []) Object.assign(holder.meta, meta);
  };
  try {
    const reply = await next();
    applyRefused();
    return reply;
  } catch (err) {
    if (!isConflict(err)) throw err;
    const meta = (req.body as { meta?: unknown } | undefined)?.meta;
    if (meta && typeof meta === "object") refused.set(key, [...(refused.get(key) ?? []), meta as Record<string, unknown>]);
    applyRefused();
    throw err;
  }
};

/** The workbook holding a slug in the deployment, else in any deployment of the tenant (fault slug-unique-tenant-wide). */
export const tenantWideHolder = (store: Store, deploymentId: number, slug: string): Item | undefined =>
  cleanBehaviour.decisionHolder(store, deploymentId, slug) ?? [...store.items.values()].find((i) => i.type === "WORKBOOK" && i.slug === slug);

/** A meta merge that appends a sent array to the stored one (fault upsert-meta-arrays-concatenated). */
export function mergeConcatenatingArrays(stored: Record<string, unknown>, sent: Record<string, unknown>): Record<string, unknown> {
  const out = { ...stored };
  for (const [k, v] of Object.entries(sent)) out[k] = Array.isArray(v) && Array.isArray(stored[k]) ? [...(stored[k] as unknown[]), ...v] : v;
  return out;
}

/**
 * A meta merge that stores each number as printed with 15 significant digits, as Perl prints a
 * float (fault upsert-meta-numbers-fifteen-digits): the double's largest becomes infinite (answered
 * as null here, `Inf` by the Perl server), 2^53 - 1 loses its last digit.
 */
export function mergeFifteenDigitNumbers(stored: Record<string, unknown>, sent: Record<string, unknown>): Record<string, unknown> {
  const printed = JSON.parse(JSON.stringify(sent), (_k, v) => (typeof v === "number" ? Number(v.toPrecision(15)) : v));
  return cleanBehaviour.mergeMeta(stored, printed);
}

/** A meta merge that writes a key only where a loose comparison (==) sees its value change (fault upsert-meta-loosely-equal-kept). */
export function mergeWhenLooselyChanged(stored: Record<string, unknown>, sent: Record<string, unknown>): Record<string, unknown> {
  const out = { ...stored };
  // biome-ignore lint/suspicious/noDoubleEquals: the fault is the loose comparison.
  for (const [k, v] of Object.entries(sent)) if (!(k in stored) || stored[k] != v) out[k] = v;
  return out;
}

/** A folderId naming a workbook is taken as a folder for the upsert (fault upsert-destination-any-item). */
export const workbookTakenAsFolder: NonNullable<Fault["handle"]> = async ({ req, app, next }) => {
  const folderId = (req.body as { folderId?: unknown } | undefined)?.folderId;
  const item = typeof folderId === "number" ? app.store.items.get(folderId) : undefined;
  if (item?.type !== "WORKBOOK") return next();
  item.type = "FOLDER";
  try {
    return await next();
  } finally {
    item.type = "WORKBOOK";
  }
};

/** The slug's workbook is filed under another deployment's folder before the upsert refuses it (fault upsert-foreign-folder-filed). */
export const filedUnderForeignFolderFirst: NonNullable<Fault["handle"]> = ({ req, app, next }) => {
  const folderId = (req.body as { folderId?: unknown } | undefined)?.folderId;
  const dest = typeof folderId === "number" ? app.store.items.get(folderId) : undefined;
  const dep = Number(req.params.deploymentId);
  if (dest?.type !== "FOLDER" || dest.deploymentId === dep) return next();
  const slug = app.b.normaliseSlug(req.params.slug);
  for (const item of app.store.items.values()) if (item.deploymentId === dep && item.slug === slug) item.folderId = dest.id;
  return next();
};

/** Every upsert answered 200 stamps updatedAt now, in whole seconds, even one that changed nothing (fault upsert-touch-on-no-op). */
export const stampedNowInWholeSeconds: NonNullable<Fault["handle"]> = async ({ app, next }) => {
  const reply = await next();
  const written = reply.status === 200 ? app.store.items.get((reply.body as { id: number }).id) : undefined;
  if (!written) return reply;
  written.updatedAt = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  return ok(workbookRecord(app.store, written));
};

/** A refused update (403) has already written the sent name to the slug's workbook (fault upsert-refused-move-renames). */
export const nameWrittenBeforeRefusal: NonNullable<Fault["handle"]> = async ({ req, app, next }) => {
  try {
    return await next();
  } catch (err) {
    const name = (req.body as { name?: unknown } | undefined)?.name;
    const dep = app.b.upsertDeployment(app.store.deployments, req.params.deploymentId);
    const holder = dep && app.b.decisionHolder(app.store, dep.id, app.b.normaliseSlug(req.params.slug));
    if (err instanceof HttpError && err.status === 403 && typeof name === "string" && holder) holder.name = name;
    throw err;
  }
};

/** A name "" is read as not sent: the upsert answers 200 and the workbook keeps its old name (fault upsert-empty-name-ignored). */
export const emptyNameDropped: NonNullable<Fault["handle"]> = ({ req, next }) => {
  const body = req.body as { name?: unknown } | undefined;
  if (body?.name === "") delete body.name;
  return next();
};

/**
 * A name "cleaned" by a byte-wise trim over Latin-1's upper half: the UTF-8 bytes of a first or last non-ASCII
 * character go, and a name of such characters alone becomes "Untitled" (fault upsert-name-non-ascii-ends-stripped).
 */
export const nonAsciiEndsStripped: NonNullable<Fault["handle"]> = ({ req, next }) => {
  const body = req.body as { name?: unknown } | undefined;
  if (typeof body?.name === "string" && body.name !== "") body.name = body.name.replace(/^[^\x00-\x7f]+|[^\x00-\x7f]+$/g, "").trim() || "Untitled";
  return next();
};

/** The slug's holder as a slug index first read it, never refreshed (fault upsert-stale-decision). */
export const staleDecisionHolder: typeof cleanBehaviour.decisionHolder = (store, deploymentId, slug) => {
  const index = staleIndex.get(store) ?? new Map<string, Item>();
  staleIndex.set(store, index);
  const key = `${deploymentId}:${slug}`;
  const holder = index.get(key) ?? cleanBehaviour.decisionHolder(store, deploymentId, slug);
  if (holder) index.set(key, holder);
  return holder;
};

/** An app entry of exactly the limit stored cut by one (fault entry-truncated-at-255). */
export const entryCutAtLimit: typeof cleanBehaviour.convertDashboardDraft = (draft) => {
  const entry = (draft as any)?.app?.entry;
  return cleanBehaviour.convertDashboardDraft(
    typeof entry === "string" && entry.length === ENTRY_MAX
      ? { ...(draft as any), app: { ...(draft as any).app, entry: entry.slice(0, ENTRY_MAX - 1) } }
      : draft,
  );
};

/** A null responsive layout refused, as if every breakpoint had to hold a position (fault draft-null-responsive-layout-refused). */
export const nullLayoutRefused: typeof cleanBehaviour.dashboardDraftProblem = (draft) => {
  const widgets: any[] = Array.isArray((draft as any)?.widgets) ? (draft as any).widgets : [];
  const bad = widgets.find((w) => w?.responsiveLayouts && Object.values(w.responsiveLayouts).some((l) => l === null));
  return bad ? `widget ${bad.id}: each responsive layout must be an object with x, y, w, h` : cleanBehaviour.dashboardDraftProblem(draft);
};

/** upsert-root-move-skips-manage: an update with folderId null is checked as one without folderId, then moved to the root. */
export const rootMoveAsNoMove: NonNullable<Fault["handle"]> = async ({ req, app, next }) => {
  const body = req.body as { folderId?: unknown } | undefined;
  if (req.method !== "PUT" || body?.folderId !== null) return next();
  const { folderId: _root, ...rest } = body;
  req.body = rest;
  const reply = await next();
  const item = reply.status < 300 ? app.store.items.get((reply.body as { id?: number } | undefined)?.id ?? -1) : undefined;
  if (item) item.folderId = null;
  return reply;
};
