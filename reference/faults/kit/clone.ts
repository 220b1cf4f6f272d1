import { type App, HttpError, ok } from "../../http.js";
import { workbookRecord } from "../../serialize.js";
import type { Item } from "../../store.js";
import type { Policy } from "./policies.js";

/** A policy that changes the clone a 200 answered (and what it made), then answers the clone as it now is. */
export const afterClone =
  (change: (clone: Item, source: Item, app: App) => void): Policy =>
  async ({ req, app, next }) => {
    const reply = await next();
    if (reply.status !== 200) return reply;
    const clone = app.store.items.get((reply.body as { id: number }).id)!;
    change(clone, app.store.items.get(Number(req.params.workbookId))!, app);
    return ok(workbookRecord(app.store, clone));
  };

/** A clone refused at the plan's workbook limit is first built, as if the plan had none. */
export const builtThenRefused: Policy = async ({ req, app, next }) => {
  try {
    return await next();
  } catch (err) {
    const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
    if (!(err instanceof HttpError) || err.status !== 400 || !/workbook limit/.test(err.message) || !dep) throw err;
    const limit = dep.workbookLimit;
    dep.workbookLimit = null;
    try {
      await next();
    } finally {
      dep.workbookLimit = limit;
    }
    throw err;
  }
};
