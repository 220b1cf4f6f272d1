import type { GroupReason } from "../../core/model/reasons.js";

/** What the users checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const usersReasons = {
  "deleted-listed": { title: "A user a bulk DELETE removed is no longer in the users list", expected: "the user not listed" },
  "user-name-as-sent": { title: "A user's name reads back as it was sent", expected: "the name as sent (its padding may be trimmed)" },
  "others-applied": { title: "A bulk action applies to every user it names but the missing one", expected: "no failure for the others" },
  "per-user-answer": { title: "A bulk action naming a missing user still answers 200", expected: "the value the rule names" },
} as const satisfies Record<string, GroupReason>;
