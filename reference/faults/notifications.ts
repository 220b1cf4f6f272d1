import { NOTIFICATION_OPERATORS } from "../routes/e14/resources.js";
import { HttpError, type Fault } from "../http.js";

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
