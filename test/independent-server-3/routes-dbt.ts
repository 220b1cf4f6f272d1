// dbt sync jobs: start, list (status/trigger filters), get, cancel, result, logs. Status advances with time.
import { deploymentFor, requireApiKey, requireRole } from "./auth.js";
import type { AppRouter, Call } from "./ctx.js";
import { conflict, created, fStr, invalid, notFound, objBody, ok, qEnum, wrap } from "./http.js";
import type { Json, Reply } from "./http.js";
import { listBody, noOffset } from "./paging.js";
import type { DbtJob, Deployment } from "./store.js";

export const DBT_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
export const DBT_TRIGGERS = ["api", "schedule", "manual"] as const;
type Status = (typeof DBT_STATUSES)[number];
const RUN_AFTER_MS = 300;
const DONE_AFTER_MS = 1500;

function statusOf(j: DbtJob, now = Date.now()): Status {
  if (j.cancelledMs !== undefined) return "cancelled";
  const age = now - j.createdMs;
  if (age < RUN_AFTER_MS) return "queued";
  if (age < DONE_AFTER_MS) return "running";
  return j.willFail ? "failed" : "succeeded";
}

function jobJson(j: DbtJob): Json {
  const st = statusOf(j);
  const o: Json = {
    id: j.id,
    deploymentId: j.deploymentId,
    status: st,
    trigger: j.trigger,
    branchName: j.branchName,
    createdAt: new Date(j.createdMs).toISOString(),
  };
  if (j.ref !== undefined) o["ref"] = j.ref;
  if (st !== "queued" && !(st === "cancelled" && j.cancelledMs! - j.createdMs < RUN_AFTER_MS))
    o["startedAt"] = new Date(j.createdMs + RUN_AFTER_MS).toISOString();
  if (st === "succeeded" || st === "failed") o["finishedAt"] = new Date(j.createdMs + DONE_AFTER_MS).toISOString();
  if (st === "cancelled") o["finishedAt"] = new Date(j.cancelledMs!).toISOString();
  return o;
}

function jobOr404(c: Call, d: Deployment): DbtJob {
  const raw = c.params["syncJobId"] ?? "";
  const j = /^\d+$/.test(raw) ? c.store.dbtJobs.find((x) => x.id === Number(raw) && x.deploymentId === d.id) : undefined;
  if (!j) throw notFound(`dbt sync job ${raw} not found in deployment ${d.id}`);
  return j;
}

function dep(c: Call): Deployment {
  requireApiKey(c.p);
  return deploymentFor(c.store, c.p, c.params["deploymentId"]);
}

function start(c: Call): Reply {
  const d = dep(c);
  requireRole(c.p, "DEVELOPER", "starting a dbt sync");
  const b = objBody(c.body, true);
  const branchName = fStr(b, "branchName", false) ?? c.store.productionBranch(d.id)?.name;
  const ref = fStr(b, "ref", false);
  if (ref !== undefined && ref.trim() === "") throw invalid("ref must not be empty");
  if (branchName === undefined || !c.store.findBranch(d.id, branchName)) throw notFound(`branch ${branchName ?? ""} not found`);
  const j: DbtJob = {
    id: c.store.ids.dbt.take(),
    deploymentId: d.id,
    branchName,
    ref,
    trigger: "api",
    createdMs: Date.now(),
    willFail: ref === "broken",
    userId: c.p.user.id,
  };
  c.store.dbtJobs.push(j);
  return created(jobJson(j), `/api/v1/deployments/${d.id}/dbt-sync/${j.id}`);
}

function list(c: Call): Reply {
  const d = dep(c);
  noOffset(c.q);
  const status = qEnum(c.q, "status", DBT_STATUSES);
  const trigger = qEnum(c.q, "trigger", DBT_TRIGGERS);
  const all = c.store.dbtJobs
    .filter((j) => j.deploymentId === d.id)
    .filter((j) => !status || statusOf(j) === status)
    .filter((j) => !trigger || j.trigger === trigger)
    .sort((a, b) => b.createdMs - a.createdMs || b.id - a.id)
    .map(jobJson);
  return ok(listBody(all, c.q, `dbt:${d.id}:${status ?? ""}:${trigger ?? ""}`));
}

function get(c: Call): Reply {
  const d = dep(c);
  return wrap(jobJson(jobOr404(c, d)));
}

function cancel(c: Call): Reply {
  const d = dep(c);
  requireRole(c.p, "DEVELOPER", "cancelling a dbt sync");
  const j = jobOr404(c, d);
  const st = statusOf(j);
  if (st === "succeeded" || st === "failed" || st === "cancelled") throw conflict(`dbt sync job ${j.id} already finished (${st})`, "job_finished");
  j.cancelledMs = Date.now();
  return wrap(jobJson(j));
}

function result(c: Call): Reply {
  const d = dep(c);
  const j = jobOr404(c, d);
  const st = statusOf(j);
  if (st === "queued" || st === "running") throw conflict(`dbt sync job ${j.id} is still ${st}; poll it until it finishes`, "job_not_finished");
  const o: Json = { jobId: j.id, status: st };
  if (st === "succeeded")
    o["summary"] = { modelsSynced: 4, cubesGenerated: 3, viewsGenerated: 1, filesWritten: ["model/cubes/dbt_orders.yml", "model/cubes/dbt_customers.yml"] };
  if (st === "failed") o["error"] = { message: `dbt manifest not found at ref ${j.ref ?? ""}` };
  return wrap(o);
}

function logs(c: Call): Reply {
  const d = dep(c);
  noOffset(c.q);
  const j = jobOr404(c, d);
  const st = statusOf(j);
  const t = (ms: number): string => new Date(j.createdMs + ms).toISOString();
  const entries: Json[] = [{ timestamp: t(0), level: "info", message: `sync queued for branch ${j.branchName}` }];
  if (st !== "queued") entries.push({ timestamp: t(RUN_AFTER_MS), level: "info", message: "fetching dbt manifest" });
  if (st === "succeeded") entries.push({ timestamp: t(DONE_AFTER_MS), level: "info", message: "sync finished: 4 models" });
  if (st === "failed") entries.push({ timestamp: t(DONE_AFTER_MS), level: "error", message: "manifest not found" });
  if (st === "cancelled") entries.push({ timestamp: new Date(j.cancelledMs!).toISOString(), level: "warn", message: "sync cancelled" });
  entries.reverse();
  return ok(listBody(entries, c.q, `dbt-logs:${j.id}`));
}

export function registerDbt(r: AppRouter): void {
  const base = "/api/v1/deployments/{deploymentId}/dbt-sync";
  r.add("POST", base, start);
  r.add("GET", base, list);
  r.add("GET", `${base}/{syncJobId}`, get);
  r.add("DELETE", `${base}/{syncJobId}`, cancel);
  r.add("GET", `${base}/{syncJobId}/result`, result);
  r.add("GET", `${base}/{syncJobId}/logs`, logs);
}
