import type { GroupReason } from "../../core/model/reasons.js";

/** What the versions checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const versionsReasons = {
  "dotted-number": { title: "Each entry's version is a dotted version number", expected: "e.g. 1.7.20" },
  "current-listed": { title: "One listed version has isCurrent true", expected: "an entry with isCurrent true" },
  "latest-marked": { title: "Channel … has its latest version marked", expected: "one entry with isLatestInChannel true" },
  "names-version": { title: "Each releaseChannelVersion names its entry's version", expected: "e.g. version 1.7.20 with cubejs/cube:v1.7.20" },
  "one-current": { title: "At most one version is the current one", expected: "0 or 1 with isCurrent" },
  "one-latest": { title: "Channel … has at most one latest version", expected: "0 or 1 with isLatestInChannel" },
} as const satisfies Record<string, GroupReason>;
