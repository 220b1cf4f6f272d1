import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotExercised } from "../../core/model/outcome.js";
import type { ServedModel } from "../../core/served/model.js";
import { propertiesOf } from "../../core/served/answers.js";
import { field, type ServedOperation } from "../../core/served/served-operations.js";
import { pathTo } from "../../core/transport/client.js";
import { accepted, allRecords, bodyWith, createdIn, documented, typedAs } from "../lib/e14.js";

/** The spellings of a notification's time grain. */
const GRAIN = "timeGrain|time_grain|grain|granularity";

/**
 * A notification's workbook, where its body documents one: the workbook discovery found before any
 * check ran, typed as the document types it. Not one `bodyWith` finds in E8 meanwhile: the first
 * there may be another check's clone (`Copy of …`, no prefix of the run's), removed before the
 * create names it, which refuses it for another field than the rule's.
 */
function workbookHint(ctx: CheckContext, create: ServedOperation): Record<string, unknown> {
  const key = create.bodyProperty("workbookId|workbook_id");
  return key === undefined ? {} : { [`${key}?`]: typedAs(propertiesOf(create.bodySchema())[key], ctx.fixture("workbook").id) };
}

/**
 * What a notification is sent to, where the body takes it: one address of a domain reserved for
 * examples (RFC 2606), never delivered. A server may require one recipient without documenting a
 * minimum, and an empty list is refused for another field than the rule's.
 */
const RECIPIENTS = { "recipients?": ["cf-notify@example.com"] };

/** The body hints of a notification named `name` with one filter of `operator` (the workbook typed as `op`'s document types it). */
const notificationHints = (ctx: CheckContext, name: string, operator: string, op: ServedOperation) => ({
  "name|title": name,
  "schedule|cron?": "0 9 * * 1",
  "filters|dashboardFilters": [{ "member|dimension|field": "orders.status", operator }],
  ...workbookHint(ctx, op),
  ...RECIPIENTS,
});

/** E14 rules of notifications: filters with empty operators, and time grains. */
export const notificationChecks = [
  ...group("notifications", [
    {
      id: "notifications.filters.empty-operators",
      spec: "E14 rule 12",
      level: "MUST",
      title:
        "A scheduled notification takes dashboard filters with the operators is_empty and is_not_empty, created with them and updated (renamed, and sent them again)",
      needs: ["writes", "fixture:deployment", "fixture:workbook"],
      async run(ctx) {
        const deploymentId = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const create = doc.requireNamed("createNotification", "creates a scheduled notification");
        doc.requireNamed("deleteNotification", "removes the run's notification afterwards");
        for (const operator of ["is_empty", "is_not_empty"]) {
          const body = await bodyWith(ctx, create, notificationHints(ctx, ctx.scratch.name("notify"), operator, create), deploymentId);
          const res = await ctx.api.call("createNotification", { deploymentId }, { body });
          ctx.requireRoute(res, "E14", "creating a scheduled notification");
          const underTest = ["filters", "dashboardFilters", "operator", operator];
          accepted(ctx, res, { body, op: create, underTest }, `a filter with operator ${operator} is accepted`, "operator-accepted");
          const { id } = createdIn(ctx, create, res, "creating a notification");
          ctx.scratch.onCleanup(`delete notification ${id}`, async () => void (await ctx.api.call("deleteNotification", { deploymentId, notificationId: id })));
          // Every write that takes the filters (CRUD): an update of the notification that holds them, renamed, sending
          // them again (a server once checked updates against an older list of operators), built as the create's body
          // is (a PUT may replace the notification whole, and require what the create did not).
          const update = doc.findNamed("updateNotification");
          if (!update) continue;
          const sent = await bodyWith(ctx, update, notificationHints(ctx, ctx.scratch.name("renamed"), operator, update), deploymentId);
          const again = await ctx.api.call("updateNotification", { deploymentId, notificationId: id }, { body: sent });
          accepted(
            ctx,
            again,
            { body: sent, op: update, underTest },
            `a filter with operator ${operator}: an update that renames the notification and sends it again is accepted`,
            "operator-accepted",
          );
        }
      },
    },
    {
      id: "notifications.time-grains.kept",
      spec: "E14 rule 12",
      level: "MUST",
      title: "A scheduled notification is created with each time grain the server's document enumerates, and reads back with that grain",
      needs: ["writes", "fixture:deployment", "fixture:workbook"],
      reasons: {
        "grain-accepted": { title: "A notification with a time grain its document enumerates is accepted", expected: "2xx" },
        "grain-kept": { title: "A notification reads back with the time grain it was created with", expected: "the grain sent" },
      },
      async run(ctx) {
        const deploymentId = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const create = doc.requireNamed("createNotification", "creates a scheduled notification");
        doc.requireNamed("deleteNotification", "removes the run's notifications afterwards");
        // The grains are the server's own: the spec names time grains and lists none.
        const grains = (create.enumOf(GRAIN) ?? []).filter((g): g is string => typeof g === "string");
        if (!grains.length) throw new NotExercised(`${create.label} enumerates no time grain (${GRAIN.split("|").join(", ")})`);
        for (const grain of grains) {
          const hints = {
            "name|title": ctx.scratch.name(`notify-${grain}`),
            "schedule|cron?": "0 9 * * 1",
            [GRAIN]: grain,
            ...workbookHint(ctx, create),
            ...RECIPIENTS,
          };
          const body = await bodyWith(ctx, create, hints, deploymentId);
          const res = await ctx.api.call("createNotification", { deploymentId }, { body });
          ctx.requireRoute(res, "E14", "creating a scheduled notification");
          accepted(
            ctx,
            res,
            { body, op: create, underTest: [...GRAIN.split("|"), grain] },
            `a notification with time grain ${grain} is accepted`,
            "grain-accepted",
          );
          const { id } = createdIn(ctx, create, res, "creating a notification");
          ctx.scratch.onCleanup(`delete notification ${id}`, async () => void (await ctx.api.call("deleteNotification", { deploymentId, notificationId: id })));
          const read = await readNotification(ctx, doc, deploymentId, id);
          ctx.expect.equal(field(read.record, GRAIN), grain, `notification ${id} reads back with time grain ${grain}`, { res: read.res, reason: "grain-kept" });
        }
      },
    },
  ]),
];

/** A notification as the server reads it: its own GET where documented, else its entry in the list. */
async function readNotification(ctx: CheckContext, doc: ServedModel, deploymentId: string, id: string | number) {
  const get = doc.findNamed("getNotification");
  if (get) {
    const res = await ctx.api.call("getNotification", { deploymentId, notificationId: id });
    ctx.require(res, "E14", `reading notification ${id} back`, (r) => r.status === 200 && r.isJson);
    return { res, record: get.record(res) };
  }
  const { res, items } = await allRecords(ctx, pathTo("listNotifications", { deploymentId }), {}, "the notifications list");
  return { res, record: items.find((n) => String(field(n, "id")) === String(id)) };
}
