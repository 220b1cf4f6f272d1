import { HttpError } from "../../http.js";
import { cleanBehaviour } from "../../behaviour.js";
import type { DeploymentRecord, Item, Store } from "../../store.js";
import type { Fault } from "../../http.js";
import { UPSERT_CONFLICT_CODE } from "../../../core/api/operations.js";

export const isConflict = (err: unknown): err is HttpError => err instanceof HttpError && err.extra.code === UPSERT_CONFLICT_CODE;

/** A decision index that is never refreshed: the first holder seen for a slug stays the answer. */
export const staleIndex = new WeakMap<Store, Map<string, Item>>();

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
