import type { GroupReason } from "../../core/model/reasons.js";

/** What the paths checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const pathsReasons = {
  "named-path": { title: "Every read E14 names is served at the path the table writes", expected: "a route at the path as written" },
} as const satisfies Record<string, GroupReason>;
