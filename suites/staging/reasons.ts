import type { GroupReason } from "../../core/model/reasons.js";

/** What the staging checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const stagingReasons = {
  "answer-flag": { title: "The answer shows isStagingEnvironmentEnabled …", expected: "the value the rule names" },
  "branch-named": { title: "The answer is the branch named", expected: "the value the rule names" },
  "staging-unchanged": { title: "The staging environment of branch … is still …", expected: "E2 … it as staging" },
  state: { title: "… … branch …'s staging environment on", expected: "the staging environment of branch … …" },
} as const satisfies Record<string, GroupReason>;
