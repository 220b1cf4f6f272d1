import type { CheckContext } from "../../core/check/context.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import { listAll } from "../../core/ledger/ownership.js";
import { propertySeed } from "../../core/run/property.js";
import type { Operation } from "../../core/served/served-document.js";
import { walkAgainUntil } from "../../core/transport/pagination.js";
import { bodyFor, createdId, itemPath, listPath, readsAsOwn, removeLater, resourcesOf } from "./documented-resources.js";
import { setup } from "./e14.js";
import { PathIds } from "./path-ids.js";

/**
 * A deployment of the run's own, made by the document's create and removed by the ledger once the
 * deployments list shows it with the run's prefix; not verifiable where the list does not. What
 * cannot be undone, or must not touch a tenant's own objects (a merge into a default branch, a
 * branch delete by a name the run did not give), is sent only there: a run never changes a
 * deployment it did not make that way. `why` says what the deployment is for (the message of a
 * check that cannot have one); `shown` dresses its display name (bodyFor).
 */
export async function ownDeployment(ctx: CheckContext, ops: Operation[], underTest: string, why: string, shown?: (name: string) => string): Promise<string> {
  const [r] = resourcesOf(ops, ctx.settings, "deployment-lifecycle");
  if (!r?.remove)
    throw new NotVerifiable(`the served document shows no deployment create whose deployment it lets a client delete: no deployment of the run's own ${why}`);
  const ids = new PathIds(ctx.api, ops, underTest);
  const res = await ctx.api.post(
    (await ids.fill(r.create.path)) ?? r.create.path,
    bodyFor(ctx, r.create, propertySeed(ctx.settings.seed, ctx.checkId), undefined, shown),
  );
  setup(ctx, res, `creating a deployment of the run's own (${r.create.method} ${r.create.path})`);
  const id = createdId(r, res);
  const removePath = id === undefined ? undefined : await itemPath(ids, r.remove, id);
  if (id === undefined || removePath === undefined)
    throw new NotVerifiable(`the answer to ${r.create.method} ${r.create.path} names no id of the deployment it made`);
  removeLater(ctx, r, removePath, res, underTest);
  const list = listPath(r, removePath);
  const whole = await walkAgainUntil(
    async () => ({ status: 200, isJson: true, body: await listAll(ctx.api, list) }),
    (w) => readsAsOwn(ctx, w, id),
  );
  if (!readsAsOwn(ctx, whole, id))
    throw new NotVerifiable(`GET ${list} does not show deployment ${id} named with ${ctx.scratch.prefix}: no deployment of the run's own ${why}`);
  return id;
}
