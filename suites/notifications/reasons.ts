import type { GroupReason } from "../../core/model/reasons.js";

/** What the notifications checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const notificationsReasons = {
  "operator-accepted": { title: "A filter with operator … is accepted", expected: "2xx" },
} as const satisfies Record<string, GroupReason>;
