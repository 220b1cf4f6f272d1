import type { GroupReason } from "../../core/model/reasons.js";

/** What the user-attributes checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const userAttributesReasons = {
  "type-accepted": { title: "An attribute of type … is created", expected: "2xx" },
  "type-kept": { title: "The … attribute is stored with its type", expected: "2xx" },
} as const satisfies Record<string, GroupReason>;
