import { group } from "../../core/check/check.js";
import { accepted, bodyWith, createdIn, documented } from "../lib/e14.js";

/** E14 rules of notifications: filters with empty operators. */
export const notificationChecks = [
  ...group("notifications", [
    {
      id: "notifications.filters.empty-operators",
      spec: "E14 rule 12",
      level: "MUST",
      title: "A scheduled notification takes dashboard filters with the operators is_empty and is_not_empty",
      needs: ["writes", "fixture:deployment"],
      async run(ctx) {
        const deploymentId = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const create = doc.requireNamed("createNotification", "creates a scheduled notification");
        doc.requireNamed("deleteNotification", "removes the run's notification afterwards");
        for (const operator of ["is_empty", "is_not_empty"]) {
          const body = await bodyWith(
            ctx,
            create,
            {
              "name|title": ctx.scratch.name("notify"),
              "schedule|cron?": "0 9 * * 1",
              "filters|dashboardFilters": [{ "member|dimension|field": "orders.status", operator }],
            },
            deploymentId,
          );
          const res = await ctx.api.call("createNotification", { deploymentId }, { body });
          ctx.requireRoute(res, "E14", "creating a scheduled notification");
          const underTest = ["filters", "dashboardFilters", "operator", operator];
          accepted(ctx, res, { body, op: create, underTest }, `a filter with operator ${operator} is accepted`, "operator-accepted");
          const { id } = createdIn(ctx, create, res, "creating a notification");
          ctx.scratch.onCleanup(`delete notification ${id}`, async () => void (await ctx.api.call("deleteNotification", { deploymentId, notificationId: id })));
        }
      },
    },
  ]),
];
