import { group } from "../../core/check/check.js";
import { pathTo } from "../../core/transport/client.js";
import { walkAgainUntil } from "../../core/transport/pagination.js";
import { field } from "../../core/served/served-operations.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import { allRecords, documented, setupRecord } from "../lib/e14.js";
import { ADMIN } from "../lib/needs.js";
import { bulkBody, bulkOp, userOfTheRun } from "../lib/users.js";

/** A page count that walks a tenant's users list whole, or far enough to have met a user made a moment before. */
const USER_PAGES = 40;

/**
 * A user a bulk DELETE removed is gone on every read path (E14 rule 6): its read says 404, and the
 * users list, whole and searched for its email, no longer holds it.
 */
export const userDeletedChecks = group("users", [
  {
    id: "users.bulk.deleted-not-listed",
    spec: "E14 rule 6 (bulk DELETE; the users list)",
    level: "MUST",
    title: "A user a bulk DELETE removed (its read answers 404) is in the users list no more: neither walked whole nor searched for its email",
    needs: [...ADMIN],
    async run(ctx) {
      const doc = await documented(ctx);
      const get = doc.requireNamed("getUser", "reads a user back");
      const id = await userOfTheRun(ctx, doc);
      const email = field(setupRecord(ctx, get, await ctx.api.call("getUser", { id }), `reading user ${id}`), "email");
      if (typeof email !== "string") throw new NotVerifiable(`user ${id} reads back with no email to find it by`);
      // By its email, unique to the run: a server may give a deleted user's id to the next user made.
      const ours = (u: unknown) => String(field(u, "email")).toLowerCase() === email.toLowerCase();
      const listing = async (query: Record<string, string>) => {
        const walk = await allRecords(ctx, pathTo("listUsers"), query, "the users list", { maxPages: USER_PAGES });
        return { res: walk.res, holds: walk.items.some(ours) };
      };
      // Listed before: a list that never showed the user proves nothing by not showing it after.
      // Walked again before it is called absent: users deleted beside this check shift a cursor that is a position.
      if (
        !(
          await walkAgainUntil(
            () => listing({}),
            (walk) => walk.holds,
          )
        ).holds
      )
        throw new NotVerifiable(`user ${id} (${email}), just made, is not in the users list`);
      setupRecord(ctx, bulkOp(doc), await ctx.api.call("bulkUserAction", {}, { body: bulkBody(doc, "DELETE", [id]) }), `deleting user ${id}`);
      const read = await ctx.api.call("getUser", { id });
      // A server may keep a deleted user readable (marked so): then whether it is listed is its own choice.
      if (read.status !== 404 && (read.status !== 200 || ours(get.record(read))))
        throw new NotVerifiable(`user ${id} (${email}), deleted, still reads ${read.status}: not known gone`);
      for (const [what, query] of [
        ["walked whole", {}],
        [`searched for ${email}`, { search: email }],
      ] as const) {
        const after = await listing(query);
        ctx.expect.that(!after.holds, `the users list ${what} no longer holds user ${id} (${email}), whose read says it is gone`, {
          expected: `no user ${email}`,
          got: `user ${email} listed`,
          res: after.res,
          reason: "deleted-listed",
        });
      }
    },
  },
]);
