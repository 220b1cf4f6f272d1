import type { GroupReason } from "../../core/model/reasons.js";

/** What the workspace checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const workspaceReasons = {
  "one-level": { title: "The folders list gives one level", expected: "only the children of the folder named by parentId" },
} as const satisfies Record<string, GroupReason>;
