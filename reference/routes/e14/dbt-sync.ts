import { type App, HttpError, ok, type Req, type Route } from "../../http.js";
import { type DbtJob, e14, newId, nowIso } from "../../e14/state.js";
import { deploymentOf } from "../common.js";
import { listAnswer } from "./engine.js";

/**
 * E14 dbt sync: start (optional branchName, ref), poll, cancel, result, logs, and the history
 * filtered by status and trigger. A started job is queued until its first poll, then runs for a few
 * more, then succeeds.
 */
export const DBT_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
export const DBT_TRIGGERS = ["api", "schedule", "webhook"] as const;
const FINISHED = new Set(["succeeded", "failed", "cancelled"]);

const record = (j: DbtJob) => ({
  id: j.id,
  status: j.status,
  trigger: j.trigger,
  branchName: j.branchName,
  ref: j.ref,
  createdAt: j.createdAt,
  finishedAt: j.finishedAt,
});

function jobOf(app: App, req: Req): DbtJob {
  const dep = deploymentOf(app, req);
  const j = e14(app.store).dbtJobs.find((x) => x.id === req.params.syncJobId && x.deploymentId === dep.id);
  if (!j) throw new HttpError(404, `sync job ${req.params.syncJobId} not found`);
  return j;
}

function enumParam(req: Req, name: string, values: readonly string[]): string | null {
  const v = req.query.get(name);
  if (v !== null && !values.includes(v)) throw new HttpError(400, `${name} must be one of ${values.join(", ")}`);
  return v;
}

export const dbtSyncRoutes: Route[] = [
  {
    operation: "startDbtSync",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const body = req.body ?? {};
      if (typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "the body must be a JSON object");
      for (const k of ["branchName", "ref"]) if (body[k] !== undefined && typeof body[k] !== "string") throw new HttpError(400, `${k} must be a string`);
      const branchName = body.branchName ?? dep.branches.find((b) => b.kind === "production")!.name;
      if (!dep.branches.some((b) => b.name === branchName)) throw new HttpError(404, `branch ${branchName} not found`);
      const s = e14(app.store);
      const job: DbtJob = {
        id: `dbt-${dep.id}-${newId(s)}`,
        deploymentId: dep.id,
        status: "queued",
        trigger: "api",
        branchName,
        ref: body.ref ?? null,
        createdAt: nowIso(),
        finishedAt: null,
        // More polls than the reads of other checks give the newest job meanwhile (the documented reads
        // send three): a poll is what moves a job on here, and a job they finished would leave the
        // cancel check of a run beside them nothing to cancel, a run at a time something to.
        pollsLeft: 6,
      };
      s.dbtJobs.push(job);
      return { status: 202, body: record(job) };
    },
  },
  {
    operation: "listDbtSyncs",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const status = enumParam(req, "status", DBT_STATUSES);
      const trigger = enumParam(req, "trigger", DBT_TRIGGERS);
      const jobs = e14(app.store)
        .dbtJobs.filter((j) => j.deploymentId === dep.id && app.b.dbtHistoryMatches(j, status, trigger))
        .reverse();
      return listAnswer(app, jobs.map(record), req.query);
    },
  },
  {
    operation: "getDbtSync",
    handler: (req, app) => {
      const j = jobOf(app, req);
      if (j.status === "queued") j.status = "running";
      else if (!FINISHED.has(j.status) && --j.pollsLeft <= 0) {
        j.status = "succeeded";
        j.finishedAt = nowIso();
      }
      return ok(record(j));
    },
  },
  {
    operation: "cancelDbtSync",
    handler: (req, app) => {
      const j = jobOf(app, req);
      if (FINISHED.has(j.status)) throw new HttpError(409, `sync job ${j.id} has finished (${j.status})`);
      // E14: cancelling a sync that has not finished stops it.
      j.status = "cancelled";
      j.finishedAt = nowIso();
      return ok(record(j));
    },
  },
  {
    operation: "getDbtSyncResult",
    handler: (req, app) => {
      const j = jobOf(app, req);
      if (!FINISHED.has(j.status)) throw new HttpError(409, `sync job ${j.id} has not finished`);
      return ok({
        id: j.id,
        status: j.status,
        filesWritten: j.status === "succeeded" ? ["model/cubes/dbt_orders.yml"] : [],
        errors: j.status === "failed" ? [{ message: "dbt manifest not found" }] : [],
      });
    },
  },
  {
    operation: "getDbtSyncLogs",
    handler: (req, app) => {
      const j = jobOf(app, req);
      const entries = [
        { timestamp: j.createdAt, level: "info", message: `sync of ${j.branchName} started` },
        ...(j.finishedAt ? [{ timestamp: j.finishedAt, level: j.status === "failed" ? "error" : "info", message: `sync ${j.status}` }] : []),
      ];
      return listAnswer(app, entries, req.query);
    },
  },
];
