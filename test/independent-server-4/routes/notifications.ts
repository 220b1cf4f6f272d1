import type { FastifyInstance, FastifyRequest } from "fastify";
import type { RouteOpts } from "../app.js";
import type { Job } from "../types.js";
import { caller, deployment, findItem, requireRole } from "../access.js";
import { crud } from "../crud.js";
import { cursorEnvelope, paginate } from "../pagination.js";
import { STD_ERRORS, cursorListResponse, cursorQuery as cq, dataOf, errorResponses, nul, params } from "../schemas.js";
import { HttpError, iso, notFound, seededUuid, uuid } from "../util.js";

const STATUSES = ["queued", "running", "succeeded", "failed", "canceled"];
const TRIGGERS = ["api", "schedule", "webhook"];
const jobSchema = {
  type: "object",
  required: ["id", "status", "trigger"],
  properties: {
    id: { type: "string" },
    deploymentId: { type: "integer" },
    status: { type: "string", enum: STATUSES },
    trigger: { type: "string", enum: TRIGGERS },
    branchName: { type: "string" },
    ref: { type: nul("string") },
    createdAt: { type: "string" },
    startedAt: { type: nul("string") },
    finishedAt: { type: nul("string") },
    error: { type: nul("string") },
  },
};

/** Job status advances with time: queued (<300 ms), running (<1.5 s), then succeeded. */
function refresh(j: Job): Job {
  if (["succeeded", "failed", "canceled"].includes(String(j.status))) return j;
  const age = Date.now() - Date.parse(String(j.createdAt));
  if (age >= 1500) {
    j.status = "succeeded";
    j.startedAt ??= iso(Date.parse(String(j.createdAt)) + 300);
    j.finishedAt = iso(Date.parse(String(j.createdAt)) + 1500);
  } else if (age >= 300) {
    j.status = "running";
    j.startedAt = iso(Date.parse(String(j.createdAt)) + 300);
  }
  return j;
}

export async function notificationRoutes(app: FastifyInstance, { store: s }: RouteOpts): Promise<void> {
  const depCheck = (_s: unknown, req: FastifyRequest) => {
    deployment(s, (req.params as { deploymentId: number }).deploymentId);
  };
  crud(app, s, {
    base: "/api/v1/deployments/:deploymentId/notifications",
    idParam: "notificationId",
    coll: "notifications",
    tag: "notifications",
    noun: "scheduled notification",
    intParents: ["deploymentId"],
    check: depCheck,
    writeRole: "ai-bi-user",
    searchFields: ["name"],
    props: {
      name: { type: "string", minLength: 1, maxLength: 200 },
      workbookId: { type: "integer", minimum: 1 },
      schedule: {
        type: "object",
        required: ["cron"],
        properties: { cron: { type: "string", pattern: "^(\\S+\\s+){4}\\S+$" }, timezone: { type: "string", default: "UTC" } },
      },
      channel: { type: "string", enum: ["email", "slack"], default: "email" },
      recipients: { type: "array", minItems: 1, items: { type: "string", minLength: 1 } },
      dashboardFilters: {
        type: "array",
        items: {
          type: "object",
          required: ["member", "operator"],
          properties: {
            member: { type: "string" },
            operator: { type: "string", enum: ["equals", "notEquals", "contains", "gt", "gte", "lt", "lte", "inDateRange", "is_empty", "is_not_empty"] },
            values: { type: "array", items: { type: "string" } },
          },
        },
      },
      timeGrain: { type: nul("string"), enum: ["day", "week", "month", "quarter", "year", null] },
      enabled: { type: "boolean", default: true },
    },
    required: ["name", "workbookId", "schedule", "recipients"],
    onCreate: (rec, req) => {
      const c = caller(req);
      findItem(s, c, rec.deploymentId as number, rec.workbookId as number, "WORKBOOK");
      rec.createdBy = c.user.id;
    },
  });

  const P = "/api/v1/deployments/:deploymentId/dbt-sync";
  const jobs = () => s.collection("dbt-sync");
  if (!jobs().size) {
    for (const [i, status, trigger] of [
      [0, "succeeded", "schedule"],
      [1, "failed", "webhook"],
    ] as const) {
      const id = seededUuid(`dbt-${i}`);
      const t = Date.UTC(2026, 10, 20 + i, 3, 0, 0, 77);
      jobs().set(id, {
        id,
        deploymentId: 101,
        status,
        trigger,
        branchName: "main",
        ref: null,
        createdAt: iso(t),
        startedAt: iso(t + 300),
        finishedAt: iso(t + 60_000),
        error: status === "failed" ? "dbt manifest not found" : null,
      });
    }
  }
  const getJob = (req: FastifyRequest) => {
    const { deploymentId, syncJobId } = req.params as { deploymentId: number; syncJobId: string };
    deployment(s, deploymentId);
    const j = jobs().get(syncJobId);
    if (!j || j.deploymentId !== deploymentId) throw notFound(`Sync job ${syncJobId}`);
    return refresh(j);
  };
  const jp = params(["deploymentId"], ["syncJobId"]);

  app.post(
    P,
    {
      schema: {
        tags: ["dbt-sync"],
        summary: "Start a dbt sync (asynchronous: 202 + Location)",
        params: params(["deploymentId"]),
        body: { type: "object", properties: { branchName: { type: "string", minLength: 1 }, ref: { type: "string", minLength: 1 } } },
        response: { 202: dataOf(jobSchema), ...errorResponses(404, 409, ...STD_ERRORS) },
      },
    },
    async (req, reply) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      requireRole(caller(req), "developer", "Starting a dbt sync");
      const b = req.body as { branchName?: string; ref?: string };
      const branchName = b.branchName ?? "main";
      if (!s.branches.some((x) => x.deploymentId === d.id && x.name === branchName)) throw notFound(`Branch ${branchName}`);
      if ([...jobs().values()].some((j) => j.deploymentId === d.id && ["queued", "running"].includes(String(refresh(j).status)))) {
        throw new HttpError(409, "A dbt sync is already running for this deployment", "sync_in_progress");
      }
      const id = uuid();
      const job: Job = {
        id,
        deploymentId: d.id,
        status: "queued",
        trigger: "api",
        branchName,
        ref: b.ref ?? null,
        createdAt: iso(),
        startedAt: null,
        finishedAt: null,
        error: null,
      };
      jobs().set(id, job);
      return reply.code(202).header("location", `/api/v1/deployments/${d.id}/dbt-sync/${id}`).send({ data: job });
    },
  );

  app.get(
    P,
    {
      schema: {
        tags: ["dbt-sync"],
        summary: "dbt sync run history",
        params: params(["deploymentId"]),
        querystring: { type: "object", properties: { status: { type: "string", enum: STATUSES }, trigger: { type: "string", enum: TRIGGERS }, ...cq } },
        response: { 200: cursorListResponse(jobSchema), ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      const q = req.query as { status?: string; trigger?: string; first?: number; after?: string };
      const list = [...jobs().values()]
        .filter((j) => j.deploymentId === d.id)
        .map(refresh)
        .filter((j) => (!q.status || j.status === q.status) && (!q.trigger || j.trigger === q.trigger))
        .sort((a, b) => (String(a.createdAt) < String(b.createdAt) ? 1 : -1));
      return cursorEnvelope(paginate(list, q, `dbt:${d.id}:${q.status ?? ""}:${q.trigger ?? ""}`, true));
    },
  );

  app.get(
    `${P}/:syncJobId`,
    {
      schema: { tags: ["dbt-sync"], summary: "Poll a sync job", params: jp, response: { 200: dataOf(jobSchema), ...errorResponses(404, ...STD_ERRORS) } },
    },
    async (req) => ({ data: getJob(req) }),
  );

  app.delete(
    `${P}/:syncJobId`,
    {
      schema: {
        tags: ["dbt-sync"],
        summary: "Cancel a sync job (returns the canceled job)",
        params: jp,
        response: { 200: dataOf(jobSchema), ...errorResponses(404, 409, ...STD_ERRORS) },
      },
    },
    async (req) => {
      requireRole(caller(req), "developer", "Canceling a dbt sync");
      const j = getJob(req);
      if (!["queued", "running"].includes(String(j.status))) throw new HttpError(409, `Sync job already ${String(j.status)}`, "job_finished");
      Object.assign(j, { status: "canceled", finishedAt: iso() });
      return { data: j };
    },
  );

  app.get(
    `${P}/:syncJobId/result`,
    {
      schema: {
        tags: ["dbt-sync"],
        summary: "Result of a finished sync (409 while queued or running)",
        params: jp,
        response: {
          200: dataOf({
            type: "object",
            properties: {
              jobId: { type: "string" },
              status: { type: "string" },
              modelsSynced: { type: "integer" },
              filesWritten: { type: "array", items: { type: "string" } },
              error: { type: nul("string") },
            },
          }),
          ...errorResponses(404, 409, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const j = getJob(req);
      if (["queued", "running"].includes(String(j.status))) throw new HttpError(409, "Sync job has not finished yet", "job_not_finished");
      const ok = j.status === "succeeded";
      return {
        data: {
          jobId: j.id,
          status: j.status,
          modelsSynced: ok ? 3 : 0,
          filesWritten: ok ? ["model/cubes/dbt_orders.yml", "model/cubes/dbt_customers.yml", "model/cubes/dbt_payments.yml"] : [],
          error: j.error ?? null,
        },
      };
    },
  );

  app.get(
    `${P}/:syncJobId/logs`,
    {
      schema: {
        tags: ["dbt-sync"],
        summary: "Log entries of a sync job",
        params: jp,
        querystring: { type: "object", properties: cq },
        response: {
          200: cursorListResponse({ type: "object", properties: { timestamp: { type: "string" }, level: { type: "string" }, message: { type: "string" } } }),
          ...errorResponses(400, 404, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const j = getJob(req);
      const t0 = Date.parse(String(j.createdAt));
      const msgs = [
        "Sync queued",
        "Cloning repository",
        "Parsing dbt manifest",
        "Generating cubes",
        j.status === "failed" ? `Error: ${String(j.error)}` : "Sync finished",
      ];
      const n = j.status === "queued" ? 1 : j.status === "running" ? 3 : msgs.length;
      const entries = msgs.slice(0, n).map((message, i) => ({ timestamp: iso(t0 + i * 250), level: message.startsWith("Error") ? "error" : "info", message }));
      return cursorEnvelope(paginate(entries, req.query as { first?: number; after?: string }, `dbt-logs:${j.id}`, true));
    },
  );
}
