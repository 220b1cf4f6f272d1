import type { CheckContext } from "../../core/check/context.js";
import type { ServedModel } from "../../core/served/model.js";
import { createdIn } from "./e14.js";

/** The users the run makes (E14 rule 6): the users group's checks, and the documented opt-ins that need a user of the run's own. */

export async function ownUser(ctx: CheckContext, doc: ServedModel): Promise<string | number> {
  const op = doc.requireNamed("createUser", "creates a user of the run's own");
  const email = `${ctx.scratch.slug("user")}@example.com`;
  return createdIn(ctx, op, await ctx.api.call("createUser", {}, { body: op.body({ email }) }), `creating user ${email}`).id;
}

export const bulkOp = (doc: ServedModel) => doc.requireNamed("bulkUserAction", "applies bulk user actions");

/** A user of the run's own, deleted at cleanup. */
export async function userOfTheRun(ctx: CheckContext, doc: ServedModel): Promise<string | number> {
  const user = await ownUser(ctx, doc);
  ctx.scratch.onCleanup(`delete user ${user}`, async () => void (await ctx.api.call("bulkUserAction", {}, { body: bulkBody(doc, "DELETE", [user]) })));
  return user;
}

export function bulkBody(doc: ServedModel, action: string, ids: (string | number)[]) {
  return bulkOp(doc).body({ action, "userIds|ids|users": ids });
}
