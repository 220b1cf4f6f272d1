import type { GroupReason } from "../../core/model/reasons.js";

/** What the branches checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const branchesReasons = {
  deleted: { title: "What a bulk delete reports deleted no longer reads", expected: "deleted items gone" },
  reparented: { title: "The child … now has the deleted branch's parent", expected: "2xx" },
  "remove-on-upstream-accepted": { title: "A branch delete with removeOnUpstream=true is accepted", expected: "a 2xx" },
  "unknown-name-deletes-none": { title: "A branch delete by a name no branch holds deletes no branch", expected: "every branch still listed" },
  "branch-deleted": { title: "A deleted branch is no longer listed", expected: "the branch not listed" },
} as const satisfies Record<string, GroupReason>;
