import type { GroupReason } from "../../core/model/reasons.js";

/** What the workspace checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const workspaceReasons = {
  "one-level": { title: "The folders list gives one level", expected: "only the children of the folder named by parentId" },
  "refused-not-made": { title: "A folder create refused past the maximum depth makes no folder", expected: "no folder of that name under its parent" },
  "depth-refused-400": { title: "A folder past the maximum nesting depth is refused with 400", expected: "400" },
  "position-answered": { title: "A folder made at a position is answered at it", expected: "the position asked for" },
  "position-listed": { title: "A folder made at a position is listed at it under its parent", expected: "the position asked for" },
} as const satisfies Record<string, GroupReason>;
