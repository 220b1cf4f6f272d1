import { e14 } from "../e14/state.js";
import { HttpError, ok, type Fault } from "../http.js";
import { DBT_STATUSES, DBT_TRIGGERS } from "../routes/e14/dbt-sync.js";

/** The faults of the group dbt-sync (suites/dbt-sync/): each makes a check of it fail, for the reason its `because` names. */
export const dbtSyncFaults: Fault[] = [
  {
    name: "refused-cancel-marks-cancelled",
    breaks: "E14 rule 10 (cancel)",
    description:
      "a cancel of a finished sync marks it cancelled before it sees that it had finished, then refuses it (409): the job reads cancelled and its result is gone",
    because: { "dbt-sync.cancel.refused-leaves-job": "refused-cancel-kept" },
    operations: ["cancelDbtSync"],
    handle: async ({ req, app, next }) => {
      const reply = await next().catch((err: unknown) => {
        const job = e14(app.store).dbtJobs.find((j) => j.id === req.params.syncJobId);
        if (job && err instanceof HttpError && err.status === 409) job.status = "cancelled";
        throw err;
      });
      return reply;
    },
  },
  {
    name: "dbt-sync-branch-ignored",
    breaks: "E14 rule 10 (optional branchName, ref)",
    description: "a dbt sync started with branchName and ref runs for the production branch",
    because: { "dbt-sync.start.branch-and-ref": "branch-kept" },
    operations: ["startDbtSync"],
    handle: ({ req, next }) => {
      if (req.body && typeof req.body === "object") {
        const { branchName: _branch, ref: _ref, ...rest } = req.body;
        req.body = rest;
      }
      return next();
    },
  },
  {
    name: "dbt-poll-answers-another-job",
    breaks: "E14 rule 10 (poll)",
    description: "polling a dbt sync answers another job's id",
    because: { "dbt-sync.run.poll-result-logs": "same-job" },
    operations: ["getDbtSync"],
    respond: ({ status, body, req }) => (status === 200 ? { ...body, id: `${body.id}-other` } : body),
  },
  {
    name: "dbt-cancel-ignored",
    breaks: "E14 rule 10 (cancel)",
    description: "cancelling a running dbt sync answers 200 and lets it run on",
    because: { "dbt-sync.cancel.stops": "stopped" },
    operations: ["cancelDbtSync"],
    handle: async ({ req, app, next }) => {
      const job = e14(app.store).dbtJobs.find((j) => j.id === req.params.syncJobId);
      if (!job) return next();
      const running = { status: job.status, finishedAt: job.finishedAt };
      const reply = await next();
      if (reply.status !== 200) return reply;
      Object.assign(job, running);
      return ok({ ...(reply.body as object), ...running });
    },
  },
  {
    name: "dbt-cancel-of-running-ignored",
    breaks: "E14 rule 10 (cancel)",
    description: "cancelling a queued dbt sync stops it, but the cancel of one that is running answers 200 and is dropped: it runs on and succeeds",
    because: { "dbt-sync.cancel.stops": "stopped" },
    operations: ["cancelDbtSync"],
    handle: async ({ req, app, next }) => {
      const job = e14(app.store).dbtJobs.find((j) => j.id === req.params.syncJobId);
      if (job?.status !== "running") return next();
      const { pollsLeft: _left, deploymentId: _dep, ...shown } = job;
      return ok(shown);
    },
  },
  {
    name: "dbt-history-status-dropped-beside-trigger",
    breaks: "E14 rule 10 (history filtered by status and trigger)",
    description: "the dbt sync history given status and trigger together filters by trigger alone (status alone still filters)",
    because: { "dbt-sync.history.filters": "both-filters", "dbt-sync.history.filters-own-runs": "both-filters" },
    behaviour: { dbtHistoryMatches: (job, status, trigger) => (trigger ? job.trigger === trigger : !status || job.status === status) },
  },
  {
    name: "dbt-history-status-of-finished-runs-unmatched",
    breaks: "E14 rule 10 (history filtered by status)",
    description:
      "the dbt sync history filtered by status lists no finished run (it matches the status a run was started in): status=cancelled lists nothing, though the history shows cancelled runs",
    because: { "dbt-sync.history.filters-own-runs": "listed-under-its-value" },
    behaviour: {
      dbtHistoryMatches: (job, status, trigger) =>
        (!status || (job.status === status && !["succeeded", "failed", "cancelled"].includes(job.status))) && (!trigger || job.trigger === trigger),
    },
  },
  {
    name: "dbt-history-trigger-ignored",
    breaks: "E14 rule 10 (history filtered by trigger)",
    description: "the dbt sync history filters by status but ignores trigger",
    because: { "dbt-sync.history.filters": "only-that-trigger" },
    behaviour: { dbtHistoryMatches: (job, status) => !status || job.status === status },
  },
  // Every status of the dbt sync history, each filter value broken alone.
  ...DBT_STATUSES.map(
    (value): Fault => ({
      name: `dbt-history-status-${value}-ignored`,
      breaks: "E14 rule 10 (history filtered by status)",
      description: `the dbt sync history filtered by status=${value} lists runs of every status (the other status values, and trigger, filter)`,
      because: { "dbt-sync.history.filters": "only-that-status" },
      behaviour: {
        dbtHistoryMatches: (job, status, trigger) => (!status || status === value || job.status === status) && (!trigger || job.trigger === trigger),
      },
    }),
  ),
  ...DBT_TRIGGERS.map(
    (value): Fault => ({
      name: `dbt-history-trigger-${value}-ignored`,
      breaks: "E14 rule 10 (history filtered by trigger)",
      description: `the dbt sync history filtered by trigger=${value} lists runs of every trigger (the other trigger values, and status, filter)`,
      because: { "dbt-sync.history.filters": "only-that-trigger" },
      behaviour: {
        dbtHistoryMatches: (job, status, trigger) => (!status || job.status === status) && (!trigger || trigger === value || job.trigger === trigger),
      },
    }),
  ),
];
