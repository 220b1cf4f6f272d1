import { HttpError } from "../http.js";
import type { App, Req } from "../http.js";
import type { DeploymentRecord, Item } from "../store.js";

export function deploymentOf(app: App, req: Req): DeploymentRecord {
  const raw = req.params.deploymentId;
  const dep = /^\d+$/.test(raw) ? app.store.deployments.find((d) => d.id === Number(raw)) : undefined;
  if (!dep) throw new HttpError(404, `deployment ${raw} not found`);
  return dep;
}

/** A workspace item of this deployment, by its id in the path; another deployment's is a 404 too. */
export function itemOf(app: App, dep: DeploymentRecord, rawId: string, type?: Item["type"]): Item {
  const item = /^\d+$/.test(rawId) ? app.store.items.get(Number(rawId)) : undefined;
  if (!item || !app.b.itemBelongsTo(item, dep.id) || (type && item.type !== type))
    throw new HttpError(404, `${(type ?? "item").toLowerCase()} ${rawId} not found`);
  return item;
}

export function itemsOf(app: App, dep: DeploymentRecord, type?: Item["type"]): Item[] {
  return [...app.store.items.values()].filter((i) => i.deploymentId === dep.id && (!type || i.type === type));
}
