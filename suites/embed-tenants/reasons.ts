import type { GroupReason } from "../../core/model/reasons.js";

/** What the embed-tenants checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const embedTenantsReasons = {
  "member-added": { title: "An embed tenant's user is added to one of its groups", expected: "a 2xx" },
  "members-listed": { title: "The members of an embed group are listed", expected: "200 with a list" },
  "member-listed": { title: "The members of an embed group hold the user added to it", expected: "the user listed" },
  "member-removed": { title: "A member is removed from an embed group", expected: "a 2xx" },
  "member-gone": { title: "A removed member is no longer listed in its group", expected: "the user not listed" },
} as const satisfies Record<string, GroupReason>;
