import type { GroupReason } from "../../core/model/reasons.js";

/** What the environments checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const environmentsReasons = {
  "all-of-type": { title: "Type=… lists every … environment of the unfiltered list", expected: "none missing" },
  "data-page": { title: "Data holds pagination.limit environments, or those left after pagination.offset", expected: "the value the rule names" },
  "has-next-page": { title: "Page … (… of … environments seen): hasNextPage is true", expected: "the value the rule names" },
  "no-empty-page": {
    title: "After page …, which holds the last environment, at most one empty page follows",
    expected: "the walk ends there, or after one empty page",
  },
  "offset-echoed": { title: "Pagination.offset echoes the offset sent (0 when none)", expected: "the value the rule names" },
  "only-type": { title: "Type=… lists only … environments", expected: "type … only" },
  "staging-listed": { title: "Branch … (always-on staging) is listed as a staging environment", expected: "an environment with branch … and type staging" },
} as const satisfies Record<string, GroupReason>;
