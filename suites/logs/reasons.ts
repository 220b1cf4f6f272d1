import type { GroupReason } from "../../core/model/reasons.js";

/** What the logs checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const logsReasons = {
  "only-that-container": { title: "A log filtered by container holds only that container's entries", expected: "only records of that container" },
  "only-that-source": { title: "A log filtered by source holds only that source's entries", expected: "only records of that source" },
} as const satisfies Record<string, GroupReason>;
