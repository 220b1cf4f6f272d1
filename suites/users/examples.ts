import { group } from "../../core/model/check.js";
import type { CheckContext } from "../../core/model/context.js";
import type { Response } from "../../core/transport/http.js";
import { NotExercised, NotVerifiable, Skip } from "../../core/model/outcome.js";
import type { ServedModel } from "../../core/served/model.js";
import { field, listed, type ServedOperation } from "../../core/served/served-operations.js";
import { propertiesOf, requiredOf } from "../../core/served/answers.js";
import { pathTo } from "../../core/api/client.js";
import type { OperationName } from "../../core/api/operations.js";
import { accepted, allRecords, bodyWith, createdIn, documented, mentions, setup, setupRecord } from "../lib/e14.js";
import { duplicate, unlessAtWorkbookLimit } from "../lib/workbook-writes.js";
import { fixedAttributeName } from "../../generators/index.js";

/**
 * E14 rules of administration and embedding: bulk user actions with per-user failures, search on
 * the users and groups lists (0.4.0), the user attribute types, and embed access actions read and
 * none. User and attribute writes touch people on a real tenant: they need --allow-admin-writes.
 */
const ADMIN = ["writes", "admin-writes"] as const;
export const ATTRIBUTE_TYPES = ["string", "number", "boolean", "string_array", "number_array"];

async function ownUser(ctx: CheckContext, doc: ServedModel): Promise<string | number> {
  const op = doc.requireNamed("createUser", "creates a user of the run's own");
  const email = `${ctx.scratch.slug("user")}@example.com`;
  return createdIn(ctx, op, await ctx.api.call("createUser", {}, { body: op.body({ email }) }), `creating user ${email}`).id;
}

const bulkOp = (doc: ServedModel) => doc.requireNamed("bulkUserAction", "applies bulk user actions");

/** A user of the run's own, deleted at cleanup. */
export async function userOfTheRun(ctx: CheckContext, doc: ServedModel): Promise<string | number> {
  const user = await ownUser(ctx, doc);
  ctx.scratch.onCleanup(`delete user ${user}`, async () => void (await ctx.api.call("bulkUserAction", {}, { body: bulkBody(doc, "DELETE", [user]) })));
  return user;
}

/** The per-user failures a bulk answer reports (under its documented wrapper), and the user id of each. */
function failuresOf(body: unknown): { failed: any[]; ids: unknown[] } {
  const failed: any[] = field(body, "failed|failures|errors") ?? [];
  return { failed, ids: failed.map((f) => field(f, "userId|id")) };
}

function bulkBody(doc: ServedModel, action: string, ids: (string | number)[]) {
  return bulkOp(doc).body({ action, "userIds|ids|users": ids });
}

/** A list filtered by `search` holds the record named by the term, and only records that mention it. */
async function searchHolds(ctx: CheckContext, list: OperationName, what: string, termOf: (rec: any) => string | undefined): Promise<void> {
  const doc = await documented(ctx);
  doc.requireNamed(list, `is the ${what} list`);
  setup(ctx, await ctx.api.call(list), `listing ${what}`);
  const path = pathTo(list);
  const all = (await allRecords(ctx, path, {}, `the ${what} list`)).items;
  const target = all.find((r) => termOf(r));
  if (!target || all.length < 2) throw new NotExercised(`the ${what} list holds ${all.length} record(s): a search could not leave one out`);
  const term = termOf(target)!;
  const { res, items: found } = await allRecords(ctx, path, { search: term }, `the ${what} list filtered by search=${term}`);
  ctx.expect.that(
    found.some((r) => field(r, "id") === field(target, "id")),
    `the ${what} record holding "${term}" is listed`,
    { expected: `id ${field(target, "id")}`, got: found.map((r) => field(r, "id")), res, reason: "match-listed" },
  );
  ctx.expect.equal(
    found.filter((r) => !mentions(r, term)).map((r) => field(r, "id")),
    [],
    `no ${what} record without "${term}" is listed`,
    { res, reason: "only-matches" },
  );
}

/** A user record as read, its timestamps aside (a read may touch them): what a refused action must leave as it was. */
async function userState(ctx: CheckContext, id: string | number): Promise<{ res: Response; state: Record<string, unknown> }> {
  const res = await ctx.api.call("getUser", { id });
  const user = setup<Record<string, unknown>>(ctx, res, `reading user ${id}`);
  return { res, state: Object.fromEntries(Object.entries(user).filter(([k]) => !/At$/.test(k))) };
}

export const e14AdminChecks = [
  ...group("users", [
    {
      id: "users.bulk.per-user-failures",
      spec: "E14 rule 6",
      level: "MUST",
      title: "Bulk DEACTIVATE, ACTIVATE and DELETE apply to each user they can and report the others as per-user failures",
      needs: [...ADMIN],
      async run(ctx) {
        const doc = await documented(ctx);
        const user = await userOfTheRun(ctx, doc);
        const gone = await ownUser(ctx, doc);
        // Deleted next, to be a missing one; at cleanup, if the check was stopped before.
        let deleted = false;
        ctx.scratch.onCleanup(
          `delete user ${gone}`,
          async () => void (deleted || (await ctx.api.call("bulkUserAction", {}, { body: bulkBody(doc, "DELETE", [gone]) }))),
        );
        setupRecord(
          ctx,
          bulkOp(doc),
          await ctx.api.call("bulkUserAction", {}, { body: bulkBody(doc, "DELETE", [gone]) }),
          `deleting user ${gone} to get a missing one`,
        );
        deleted = true;
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
        for (const action of ["ACTIVATE", "DELETE"]) {
          const r = await ctx.api.call("bulkUserAction", {}, { body: bulkBody(doc, action, [user]) });
          ctx.expect.status(r, 200, `bulk ${action} of the run's user`, "action-accepted");
        }
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
      title: "search on the users list lists the users that mention the term, and only those (0.4.0)",
      needs: [],
      run: (ctx) => searchHolds(ctx, "listUsers", "users", (u) => (typeof u?.email === "string" ? u.email.split("@")[0] : undefined)),
    },
  ]),
  ...group("groups", [
    {
      id: "groups.list.search",
      spec: "E14 rule 11",
      level: "MUST",
      title: "search on the groups list lists the groups that mention the term, and only those (0.4.0)",
      needs: [],
      run: (ctx) => searchHolds(ctx, "listGroups", "groups", (g) => (typeof g?.name === "string" && g.name ? g.name : undefined)),
    },
  ]),
  ...group("user-attributes", [
    {
      id: "user-attributes.types.accepted",
      spec: "E14 rule 7",
      level: "MUST",
      title: "A user attribute can be created with each type: string, number, boolean, string_array, number_array",
      needs: [...ADMIN],
      async run(ctx) {
        const doc = await documented(ctx);
        const create = doc.requireNamed("createUserAttribute", "creates user attributes");
        // Without a documented delete, what it makes stays: only the tool's fixed names, and only as the user allowed.
        const removable = doc.findNamed("deleteUserAttribute") !== undefined;
        if (!removable && !ctx.settings.unremovableWrites)
          throw new Skip(
            "the server's document shows no delete of a user attribute, so what the check creates would stay: pass --allow-unremovable-writes to create the tool's fixed attributes",
          );
        for (const type of ATTRIBUTE_TYPES) {
          const name = removable ? ctx.scratch.slug(`attr-${type}`).replace(/-/g, "_") : fixedAttributeName(type);
          const body = create.body({ "name|key": name, "type|dataType": type });
          const res = await ctx.api.call("createUserAttribute", {}, { body });
          if (!removable && res.status === 409)
            throw new NotExercised(
              `${name}, a fixed attribute of the tool, exists from an earlier run and the server documents no delete: creating a ${type} attribute was not tried anew`,
            );
          accepted(ctx, res, { body, op: create, underTest: ["type", "dataType", type] }, `an attribute of type ${type} is created`, "type-accepted");
          const { id, record } = createdIn(ctx, create, res, `creating a ${type} attribute`);
          if (removable)
            ctx.scratch.onCleanup(`delete user attribute ${id}`, async () => void (await ctx.api.call("deleteUserAttribute", { attributeId: id })));
          const shown = field(record, "type|dataType");
          if (shown !== undefined) ctx.expect.equal(shown, type, `the ${type} attribute is stored with its type`, { res, reason: "type-kept" });
        }
      },
    },
  ]),
  ...group("embed", [
    {
      id: "embed.access.actions",
      spec: "E14 rule 8",
      level: "MUST",
      title: "Embed access of a workbook can be set to read and to none, and reads back so",
      needs: ["writes", "fixture:deployment", "fixture:publishedWorkbook"],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const put = doc.requireNamed("setEmbedAccess", "changes embed access");
        const get = doc.requireNamed("getEmbedAccess", "reads embed access");
        const target = embedTarget(put);
        // Access is to a workbook's dashboard: a clone of one with a published dashboard (E10 rule 1 copies it) is the run's own to change.
        const wb = await publishedOfItsOwn(ctx, dep);
        const workbook = { deploymentId: dep, workbookId: wb.id };
        for (const action of ["read", "none"]) {
          // A tenant the document requires is one the server lists (bodyWith), typed as the document types it.
          const body = await bodyWith(ctx, put, target.hints(action), dep);
          const res = await ctx.api.call("setEmbedAccess", workbook, { body });
          // A tenant left out where the document shows no all-users flag: a refusal says the server needs one, which the run cannot name.
          if (target.tenantLeftOut && res.status >= 400 && res.status < 500)
            throw new NotVerifiable(
              `embed access is documented with an optional tenant, no all-users flag, and the server lists no embed tenant; a body naming none was answered ${res.status}`,
            );
          accepted(ctx, res, { body, op: put, underTest: ["action", action] }, `action ${action} is accepted`, "action-accepted");
          const read = await ctx.api.call("getEmbedAccess", workbook);
          const shown = embedActions(get.record(read));
          ctx.expect.that(shown.includes(action), `embed access reads back with action ${action}`, {
            expected: action,
            got: shown,
            res: read,
            reason: "action-kept",
          });
        }
      },
    },
  ]),
];

const ALL_USERS = "allEmbedUsers|allUsers|all";
const TENANT = "tenantId|embedTenantId";

/** A workbook of the run's own with a published dashboard: a clone of the one discovery found (fixture publishedWorkbook). */
async function publishedOfItsOwn(ctx: CheckContext, dep: string): Promise<{ id: number }> {
  const res = await duplicate(ctx.scratch, ctx.api, dep, ctx.fixture("publishedWorkbook").id);
  unlessAtWorkbookLimit(res, "cloning the workbook with a published dashboard");
  const clone = ctx.require<{ id: number }>(
    res,
    "E10",
    "cloning a workbook with a published dashboard, to set its embed access",
    (r) => r.isJson && Number.isSafeInteger(r.body?.id),
  );
  // An answer may name another workbook than the one it made: E9 must show it is the run's clone before its access is changed.
  const since = Date.parse(res.headers.date ?? "");
  await ctx.scratch.requireOwn(ctx.api, dep, [{ type: "WORKBOOK", id: clone.id, ...(Number.isNaN(since) ? {} : { since }) }]);
  return clone;
}

/**
 * Whom the check sets embed access for, per action: all embed users by the document's field,
 * spelled as the document types it (a boolean flag beside the action, the action itself, or an
 * object holding it); else, where the tenant is optional, by leaving it out; else (the tenant
 * required, no hint naming it) an embed tenant the server lists, filled in by `bodyWith`.
 */
function embedTarget(put: ServedOperation): { hints: (action: string) => Record<string, unknown>; tenantLeftOut: boolean } {
  const schema = put.bodySchema();
  const props = propertiesOf(schema);
  const all = Object.keys(props).find((k) => ALL_USERS.toLowerCase().split("|").includes(k.toLowerCase()));
  const allType = all === undefined ? undefined : [props[all]?.type, ...(props[all]?.anyOf ?? props[all]?.oneOf ?? []).map((b: any) => b?.type)].flat();
  const forAll = (hints: (action: string) => Record<string, unknown>) => ({ hints, tenantLeftOut: false });
  if (all !== undefined && props[all]?.const !== undefined) return forAll((action) => ({ action, [all]: props[all].const }));
  if (all !== undefined && (allType?.includes("boolean") || allType?.every((t) => t === undefined))) return forAll((action) => ({ action, [all]: true }));
  if (all !== undefined && allType?.includes("string")) return forAll((action) => ({ "action?": action, [all]: action }));
  if (all !== undefined && allType?.includes("object") && "action" in propertiesOf(props[all]))
    return forAll((action) => ({ "action?": action, [all]: { action } }));
  const tenant = Object.keys(props).find((k) => TENANT.toLowerCase().split("|").includes(k.toLowerCase()));
  return { hints: (action) => ({ action }), tenantLeftOut: !tenant || !requiredOf(schema).includes(tenant) };
}

/** The actions an embed access answer shows: each entry's `action`, and an all-users field that holds one (`allEmbedUsers: "read"`). */
function embedActions(record: any): unknown[] {
  const entries = listed(record) ?? Object.values(record ?? {}).find((v) => Array.isArray(v)) ?? [];
  return [...(entries as any[]).map((e) => field(e, "action")), field(record, ALL_USERS)].filter((a) => typeof a === "string");
}
