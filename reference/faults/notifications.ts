import { NOTIFICATION_OPERATORS } from "../routes/e14/resources.js";
import { HttpError, type Fault } from "../http.js";

/** Per reference app, the filters each notification was created with (fault notification-update-old-operators). */
const filtersHeld = new WeakMap<object, Map<string, unknown[]>>();

/** The faults of the group notifications (suites/notifications/): each makes a check of it fail, for the reason its `because` names. */
export const notificationsFaults: Fault[] = [
  {
    name: "notification-empty-operators-refused",
    breaks: "E14 rule 12 (operators is_empty, is_not_empty)",
    description: "notification filters refuse the operators is_empty and is_not_empty",
    because: { "notifications.filters.empty-operators": "operator-accepted" },
    operations: ["createNotification", "updateNotification"],
    handle: ({ req, next }) => {
      const left = NOTIFICATION_OPERATORS.filter((o) => !o.endsWith("empty"));
      const filters: unknown = req.body?.filters;
      if (Array.isArray(filters) && filters.some((f) => !left.includes(f?.operator)))
        throw new HttpError(400, `each filter is {member, operator: ${left.join(" | ")}, values?}`);
      return next();
    },
  },
  {
    name: "notification-update-old-operators",
    breaks: "E14 rule 12 (operators is_empty, is_not_empty)",
    description:
      "the create takes is_empty and is_not_empty, the update checks an older list without them: a notification that holds one cannot be renamed, nor sent them again",
    because: { "notifications.filters.empty-operators": "operator-accepted" },
    operations: ["createNotification", "updateNotification"],
    handle: async ({ req, app, next }) => {
      const held = filtersHeld.get(app) ?? new Map<string, unknown[]>();
      filtersHeld.set(app, held);
      const sent: unknown[] = Array.isArray(req.body?.filters) ? req.body.filters : [];
      if (req.operation === "createNotification") {
        const reply = await next();
        const id = (reply.body as any)?.id ?? (reply.body as any)?.data?.id;
        if (reply.status < 300 && id !== undefined) held.set(String(id), sent);
        return reply;
      }
      const filters = [...(held.get(req.params.notificationId) ?? []), ...sent];
      if (filters.some((f: any) => typeof f?.operator === "string" && f.operator.endsWith("empty"))) throw new HttpError(400, "unknown filter operator");
      return next();
    },
  },
  {
    name: "notification-time-grain-coarsened",
    breaks: "E14 rule 12 (time grains)",
    description: "a notification's store holds day, week and month only: quarter and year are taken and kept as month",
    because: { "notifications.time-grains.kept": "grain-kept" },
    operations: ["createNotification", "updateNotification"],
    handle: ({ req, next }) => {
      if (req.body?.timeGrain === "quarter" || req.body?.timeGrain === "year") req.body = { ...req.body, timeGrain: "month" };
      return next();
    },
  },
];
