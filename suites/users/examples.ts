import { isDeepStrictEqual } from "node:util";
import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { field } from "../../core/served/served-operations.js";
import { createdIn, documented, setup, setupRecord } from "../lib/e14.js";
import { withoutTimestamps } from "../lib/values.js";
import { ADMIN } from "../lib/needs.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import { searchHolds } from "../lib/search.js";
import { bulkBody, bulkOp, ownUser, unknownUserId, userOfTheRun } from "../lib/users.js";

/**
 * E14 rules of user administration: bulk user actions with per-user failures, and search on the
 * users list (0.4.0). User writes touch people on a real tenant: they need --allow-admin-writes.
 */

/** The per-user failures a bulk answer reports (under its documented wrapper), and the user id of each. */
function failuresOf(body: unknown): { failed: any[]; ids: unknown[] } {
  const failed: any[] = field(body, "failed|failures|errors") ?? [];
  return { failed, ids: failed.map((f) => field(f, "userId|id")) };
}

/** A user record as read, its timestamps aside (a read may touch them): what a refused action must leave as it was. */
async function userState(ctx: CheckContext, id: string | number): Promise<{ res: Response; state: Record<string, unknown> }> {
  const res = await ctx.api.call("getUser", { id });
  const user = setup<Record<string, unknown>>(ctx, res, `reading user ${id}`);
  return { res, state: withoutTimestamps(user) };
}

/**
 * An id that names no user, shaped as the run's own: made up past the ids a server hands out
 * (unknownUserId), read as 404 first; where ids have another shape, a user of the run's own,
 * deleted (and read as 404 before it is named).
 */
async function missingUser(ctx: CheckContext, doc: Awaited<ReturnType<typeof documented>>, like: string | number): Promise<string | number> {
  const made = unknownUserId(like);
  const id = made ?? (await ownUser(ctx, doc));
  if (made === undefined) {
    // Deleted next, to be a missing one; at cleanup, if the check was stopped before.
    let deleted = false;
    ctx.scratch.onCleanup(
      `delete user ${id}`,
      async () => void (deleted || (await ctx.api.call("bulkUserAction", {}, { body: bulkBody(doc, "DELETE", [id]) }))),
    );
    setupRecord(
      ctx,
      bulkOp(doc),
      await ctx.api.call("bulkUserAction", {}, { body: bulkBody(doc, "DELETE", [id]) }),
      `deleting user ${id} to get a missing one`,
    );
    deleted = true;
  }
  const read = await ctx.api.call("getUser", { id });
  if (read.status !== 404) throw new NotVerifiable(`user ${id}, meant to name no user, reads ${read.status}, not 404`);
  return id;
}

export const userChecks = [
  ...group("users", [
    {
      id: "users.bulk.per-user-failures",
      spec: "E14 rule 6",
      level: "MUST",
      title:
        "Bulk DEACTIVATE, ACTIVATE and DELETE apply to each user they can and report the others as per-user failures: a made-up id, and a user a bulk DELETE removed, which an ACTIVATE does not bring back",
      needs: [...ADMIN],
      async run(ctx) {
        const doc = await documented(ctx);
        const user = await userOfTheRun(ctx, doc);
        const gone = await missingUser(ctx, doc, user);
        const res = await ctx.api.call("bulkUserAction", {}, { body: bulkBody(doc, "DEACTIVATE", [user, gone]) });
        ctx.expect.status(res, 200, "a bulk action naming a missing user still answers 200", "per-user-answer");
        ctx.expect.json(res);
        const body = bulkOp(doc).record(res);
        const { failed, ids: failedIds } = failuresOf(body);
        ctx.expect.that(failedIds.includes(gone), "the missing user is reported as a per-user failure", {
          expected: `a failure for user ${gone}`,
          got: body,
          res,
          reason: "failure-reported",
        });
        ctx.expect.that(!failedIds.includes(user), "the existing user is not reported as failed", {
          expected: `no failure for ${user}`,
          got: failed,
          res,
          reason: "others-applied",
        });
        // The missing user first: the user after it is still applied, as a DEACTIVATE of it alone applies it (a server once
        // stopped at the first failure). Told apart only where the user reads otherwise once active again.
        const act = (action: string, ids: (string | number)[]) => ctx.api.call("bulkUserAction", {}, { body: bulkBody(doc, action, ids) });
        ctx.expect.status(await act("ACTIVATE", [user]), 200, "bulk ACTIVATE of the run's user", "action-accepted");
        const active = (await userState(ctx, user)).state;
        ctx.expect.status(await act("DEACTIVATE", [gone, user]), 200, "a bulk DEACTIVATE naming a missing user first still answers 200", "per-user-answer");
        const afterBatch = await userState(ctx, user);
        await act("DEACTIVATE", [user]);
        const alone = (await userState(ctx, user)).state;
        if (!isDeepStrictEqual(alone, active))
          ctx.expect.equal(
            afterBatch.state,
            alone,
            `user ${user} after a DEACTIVATE that named missing user ${gone} before it, as a DEACTIVATE of it alone leaves it`,
            {
              res: afterBatch.res,
              reason: "others-applied",
            },
          );
        for (const action of ["ACTIVATE", "DELETE"]) ctx.expect.status(await act(action, [user]), 200, `bulk ${action} of the run's user`, "action-accepted");
      },
    },
    {
      id: "users.bulk.forbidden-not-applied",
      spec: "E14 rule 6",
      // SHOULD: who may administer users is not shown; a read-only caller is the plainest case of one who may not.
      level: "SHOULD",
      title: "A bulk DEACTIVATE sent by the read-only caller is refused (a 4xx, or the user among the failures) and the user reads as before",
      needs: [...ADMIN, "token:readOnly"],
      async run(ctx) {
        const doc = await documented(ctx);
        const user = await userOfTheRun(ctx, doc);
        const before = await userState(ctx, user);
        const res = await ctx.as("readOnly").call("bulkUserAction", {}, { body: bulkBody(doc, "DEACTIVATE", [user]) });
        ctx.requireRoute(res, "E14", "a bulk user action");
        const failedIds = res.status === 200 ? failuresOf(ctx.expect.json(res)).ids : [];
        ctx.expect.that((res.status >= 400 && res.status < 500) || failedIds.includes(user), "the read-only caller's DEACTIVATE is refused", {
          expected: `a 4xx, or a failure for user ${user}`,
          got: `${res.status} ${res.text.slice(0, 160)}`,
          res,
          reason: "refused",
        });
        const after = await userState(ctx, user);
        ctx.expect.equal(after.state, before.state, `user ${user} after the refused DEACTIVATE`, { res: after.res, reason: "not-applied" });
      },
    },
    {
      id: "users.bulk.duplicate-once",
      spec: "E14 rule 6",
      // SHOULD: duplicates collapse in the spec's other bulk operation (E12) and in bulk delete (published docs); for users it is implied.
      level: "SHOULD",
      title: "A user named twice in one bulk action is applied once and its duplicate is no per-user failure",
      needs: [...ADMIN],
      async run(ctx) {
        const doc = await documented(ctx);
        const user = await userOfTheRun(ctx, doc);
        const res = await ctx.api.call("bulkUserAction", {}, { body: bulkBody(doc, "DEACTIVATE", [user, user]) });
        ctx.expect.status(res, 200, "a bulk DEACTIVATE naming the run's user twice", "per-user-answer");
        const failed = failuresOf(ctx.expect.json(res)).failed.filter((f) => field(f, "userId|id") === user);
        ctx.expect.equal(failed, [], `user ${user}, sent twice, is no per-user failure`, { res, reason: "no-duplicate-failure" });
      },
    },
    {
      id: "users.list.search",
      spec: "E14 rule 6; E14 rule 11",
      level: "MUST",
      title: "search on the users list lists the users that mention the term, and only those, on every page (0.4.0)",
      needs: [],
      run: (ctx) =>
        searchHolds(
          ctx,
          "listUsers",
          "users",
          (u) => (typeof u?.email === "string" ? u.email.split("@")[0] : undefined),
          (u) => (typeof u?.email === "string" ? u.email : undefined),
        ),
    },
    {
      id: "users.create.name-kept",
      spec: "E14 rule 6",
      // SHOULD: E14 shows no user shape; a name the server takes is the name it keeps, as any record's text.
      level: "SHOULD",
      title: "A user created with a name (plain, padded, non-ASCII, longer than 255) reads back with that name, or the create is refused with a 4xx",
      needs: [...ADMIN],
      async run(ctx) {
        const doc = await documented(ctx);
        const op = doc.requireNamed("createUser", "creates a user of the run's own");
        const get = doc.requireNamed("getUser", "reads a user back");
        // The text classes of core/api/input-domain.ts: no limit is stated, so a refusal (4xx) of any of them passes.
        for (const name of ["Ada", "  Ada Padded  ", "Zoë Øst 日本語 ✓", `Ada${"x".repeat(300)}`]) {
          const email = `${ctx.scratch.slug("user")}@example.com`;
          const body = op.body({ email, "name|firstName|fullName|displayName": name });
          const shown = `${JSON.stringify(name.slice(0, 24))}${name.length > 24 ? "…" : ""}`;
          const res = await ctx.api.call("createUser", {}, { body });
          ctx.expect.that(res.status < 500, `creating a user named ${shown} is answered below 500`, {
            expected: "a status below 500",
            got: res.status,
            res,
            reason: "no-5xx",
          });
          if (res.status >= 400) continue;
          const { id } = createdIn(ctx, op, res, `creating user ${email} named ${shown}`);
          ctx.scratch.onCleanup(`delete user ${id}`, async () => void (await ctx.api.call("bulkUserAction", {}, { body: bulkBody(doc, "DELETE", [id]) })));
          const key = Object.keys(body).find((k) => body[k] === name)!;
          const read = await ctx.api.call("getUser", { id });
          // The record under the wrapper the document declares for the read (a server may answer {data: {...}}).
          const got = field(setupRecord(ctx, get, read, `reading user ${id}`), key);
          // Padding may be trimmed: a name is not its spaces.
          ctx.expect.that(got === name || got === name.trim(), `user ${id}'s ${key}, sent as ${shown}, reads back as sent`, {
            expected: name,
            got,
            res: read,
            reason: "user-name-as-sent",
          });
        }
      },
    },
  ]),
];
