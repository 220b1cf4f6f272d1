import { randomUUID } from "node:crypto";
import type { CheckContext } from "../../core/check/context.js";
import type { ServedModel } from "../../core/served/model.js";
import { field } from "../../core/served/served-operations.js";
import { createdIn } from "./e14.js";

/** The users the run makes (E14 rule 6): the users group's checks, and the documented opt-ins that need a user of the run's own. */

type UserId = string | number;

async function createOwnUser(ctx: CheckContext, doc: ServedModel): Promise<{ id: UserId; email: string }> {
  const op = doc.requireNamed("createUser", "creates a user of the run's own");
  const email = `${ctx.scratch.slug("user")}@example.com`;
  return { id: createdIn(ctx, op, await ctx.api.call("createUser", {}, { body: op.body({ email }) }), `creating user ${email}`).id, email };
}

/** A user of the run's own, for a check that deletes it itself. */
export const ownUser = async (ctx: CheckContext, doc: ServedModel): Promise<UserId> => (await createOwnUser(ctx, doc)).id;

export const bulkOp = (doc: ServedModel) => doc.requireNamed("bulkUserAction", "applies bulk user actions");

/**
 * A user of the run's own, deleted at cleanup only while its id still reads as that user: a server
 * may give a deleted user's id to the next user made (the highest id plus one, as SQLite does), and
 * a check may have deleted its user before; the id then names someone else's user.
 */
export async function userOfTheRun(ctx: CheckContext, doc: ServedModel): Promise<UserId> {
  const { id, email } = await createOwnUser(ctx, doc);
  ctx.scratch.onCleanup(`delete user ${id}`, async () => {
    const now = await ctx.api.call("getUser", { id });
    // Gone already (the check deleted it); an answer that tells nothing is a leftover, said so.
    if (now.status === 404) return;
    if (now.status !== 200 || !now.isJson) throw new Error(`user ${id} (${email}) read back ${now.status}: not deleted, not known gone`);
    if (field(doc.findNamed("getUser")?.record(now) ?? now.body, "email") === email)
      await ctx.api.call("bulkUserAction", {}, { body: bulkBody(doc, "DELETE", [id]) });
  });
  return id;
}

/** How far past an id of the run's own a made-up user id lies: beyond any id a server hands out next, within a 32-bit integer. */
const UNKNOWN_USER_OFFSET = 1_000_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An id shaped as `like` (a user id of the run's own) that names no user: far past it where ids
 * are numbers, a new UUID where they are UUIDs; undefined for other shapes. Not a deleted user's id:
 * a server may give that to the next user made, someone else's (the blind Go server does).
 */
export function unknownUserId(like: UserId): UserId | undefined {
  if (typeof like === "number") return Number.isSafeInteger(like) ? Math.min(like + UNKNOWN_USER_OFFSET, 2 ** 31 - 1) : undefined;
  if (/^\d{1,15}$/.test(like)) return String(Math.min(Number(like) + UNKNOWN_USER_OFFSET, 2 ** 31 - 1));
  return UUID.test(like) ? randomUUID() : undefined;
}

export function bulkBody(doc: ServedModel, action: string, ids: UserId[]) {
  return bulkOp(doc).body({ action, "userIds|ids|users": ids });
}
