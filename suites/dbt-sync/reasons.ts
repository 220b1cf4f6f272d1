import type { GroupReason } from "../../core/model/reasons.js";

/** What the dbt-sync checks' assertions fail with (CheckFailure.reason), beside them; assembled with core's and the other groups' by suites/reasons.ts. */
export const dbtSyncReasons = {
  "refused-cancel-kept": { title: "A refused cancel leaves a finished sync's status and result as they were", expected: "the status and the result as before" },
  "both-filters": {
    title: "A history filtered by status and trigger at once holds only runs of both",
    expected: "only records of that status and that trigger",
  },
  cancel: { title: "The cancel is accepted", expected: "2xx" },
  "only-that-status": { title: "A history filtered by status holds only runs of that status", expected: "only records of that status" },
  "only-that-trigger": { title: "A history filtered by trigger holds only runs of that trigger", expected: "only records of that trigger" },
  "listed-under-its-value": {
    title: "A history filtered by a run's trigger, or by a status it keeps for good, lists that run",
    expected: "the run listed",
  },
  poll: { title: "A started sync can be polled by its id", expected: "200" },
  "same-job": { title: "The poll answers the job it names", expected: "the value the rule names" },
  "stays-stopped": { title: "The cancelled sync stays as it was", expected: "a status other than …" },
  stopped: { title: "A cancelled sync leaves its running state", expected: "a status other than the running one" },
  "branch-sync-started": { title: "A dbt sync starts with branchName and ref", expected: "a 2xx" },
  "branch-kept": { title: "A dbt sync runs for the branch it was started for", expected: "the branch named at the start" },
} as const satisfies Record<string, GroupReason>;
