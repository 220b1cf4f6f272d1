import { group } from "../../core/model/check.js";
import type { CheckContext } from "../../core/model/context.js";
import { NotExercised } from "../../core/model/outcome.js";
import type { ReasonKey } from "../../core/model/reasons.js";
import { field } from "../../core/served/served-operations.js";
import type { ServedOperation } from "../../core/served/served-operations.js";
import { pathTo } from "../../core/api/client.js";
import { accepted, allRecords, bodyWith, createdIn, documented, servedOrPlain, startDbtSync } from "../lib/e14.js";

/**
 * E14 rules of deployment operations: the logs filter by source (production, dev) and container,
 * and dbt sync starts, is polled, cancelled, gives a result and logs, and keeps a history that
 * filters by status and trigger.
 */
const LOG_SOURCES = ["production", "dev"];
/** The containers E14 names; "the server container" has no name to send. */
const LOG_CONTAINERS = ["INIT", "MAIN", "vector", "api-proxy"];
const POLLS = 20;
const POLL_GAP_MS = 100;

/** Each value of a filter lists only records carrying it; exercised when some record shows the field. */
async function filterHolds(ctx: CheckContext, path: string, param: string, values: string[], fieldNames: string, reason: ReasonKey): Promise<void> {
  let seen = 0;
  for (const value of values) {
    const { res, items } = await allRecords(ctx, path, { [param]: value }, `the list filtered by ${param}=${value}`);
    const shown = items.map((r) => field(r, fieldNames)).filter((v) => v !== undefined);
    seen += shown.length;
    ctx.expect.equal(
      shown.filter((v) => v !== value),
      [],
      `${param}=${value} lists only records of that ${param}`,
      { res, reason },
    );
  }
  if (!seen) throw new NotExercised(`no record filtered by ${param} (${values.join(", ")}) shows its ${param}`);
}

/** The placeholders of a sync of the deployment. */
const sync = (dep: string, id: string | number) => ({ deploymentId: dep, syncJobId: id });
const pause = () => new Promise((r) => setTimeout(r, POLL_GAP_MS));

/** A sync started, and its poll (an answer read through its documentation, where the document has it). */
async function startSync(ctx: CheckContext, dep: string): Promise<{ id: string | number; status: unknown; ops: { poll: Pick<ServedOperation, "record"> } }> {
  const start = (await documented(ctx)).requireNamed("startDbtSync", "starts a dbt sync");
  const ops = { poll: await servedOrPlain(ctx, "getDbtSync") };
  const res = await startDbtSync(ctx, dep, await bodyWith(ctx, start, {}, dep));
  ctx.requireRoute(res, "E14", "starting a dbt sync");
  // Starting is the scenario, not the rule: a refusal (a sync of someone else's already running,
  // say) leaves the rule unverifiable with the server's words, never failed.
  ctx.require(res, "E14", "starting a dbt sync of the run's own");
  const { id, record } = createdIn(ctx, start, res, "starting a dbt sync");
  ctx.scratch.onCleanup(`cancel dbt sync ${id}`, async () => void (await ctx.api.call("cancelDbtSync", sync(dep, id))));
  return { id, status: field(record, "status|state"), ops };
}

export const e14OperationChecks = [
  ...group("notifications", [
    {
      id: "notifications.filters.empty-operators",
      spec: "E14 rule 12",
      level: "MUST",
      title: "A scheduled notification takes dashboard filters with the operators is_empty and is_not_empty",
      needs: ["writes", "fixture:deployment"],
      async run(ctx) {
        const deploymentId = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const create = doc.requireNamed("createNotification", "creates a scheduled notification");
        doc.requireNamed("deleteNotification", "removes the run's notification afterwards");
        for (const operator of ["is_empty", "is_not_empty"]) {
          const body = await bodyWith(
            ctx,
            create,
            {
              "name|title": ctx.scratch.name("notify"),
              "schedule|cron?": "0 9 * * 1",
              "filters|dashboardFilters": [{ "member|dimension|field": "orders.status", operator }],
            },
            deploymentId,
          );
          const res = await ctx.api.call("createNotification", { deploymentId }, { body });
          ctx.requireRoute(res, "E14", "creating a scheduled notification");
          const underTest = ["filters", "dashboardFilters", "operator", operator];
          accepted(ctx, res, { body, op: create, underTest }, `a filter with operator ${operator} is accepted`, "operator-accepted");
          const { id } = createdIn(ctx, create, res, "creating a notification");
          ctx.scratch.onCleanup(`delete notification ${id}`, async () => void (await ctx.api.call("deleteNotification", { deploymentId, notificationId: id })));
        }
      },
    },
  ]),
  ...group("logs", [
    {
      id: "logs.filter.source",
      spec: "E14 rule 9",
      level: "MUST",
      title: "The logs filtered by source (production, dev) hold only entries of that source",
      needs: ["fixture:deployment"],
      async run(ctx) {
        const path = pathTo("getLogs", { deploymentId: ctx.fixture("deployment").id });
        (await documented(ctx)).requireNamed("getLogs", "lists container logs");
        await filterHolds(ctx, path, "source", LOG_SOURCES, "source", "only-that-source");
      },
    },
    {
      id: "logs.filter.container",
      spec: "E14 rule 9",
      level: "MUST",
      title: "The logs filtered by container (INIT, MAIN, vector, api-proxy) hold only entries of that container",
      needs: ["fixture:deployment"],
      async run(ctx) {
        const path = pathTo("getLogs", { deploymentId: ctx.fixture("deployment").id });
        (await documented(ctx)).requireNamed("getLogs", "lists container logs");
        await filterHolds(ctx, path, "container", LOG_CONTAINERS, "container", "only-that-container");
      },
    },
  ]),
  ...group("dbt-sync", [
    {
      id: "dbt-sync.run.poll-result-logs",
      spec: "E14 rule 10",
      level: "MUST",
      title: "A started dbt sync is polled by its id until it finishes, then gives its result and its logs",
      needs: ["writes", "fixture:deployment"],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const { id, ops } = await startSync(ctx, dep);
        for (let i = 0; i < POLLS; i++) {
          const poll = await ctx.api.call("getDbtSync", sync(dep, id));
          ctx.expect.status(poll, 200, `polling sync ${id}`, "poll");
          ctx.expect.equal(String(field(ops.poll.record(poll), "id")), String(id), "the poll answers the job it names", { res: poll, reason: "same-job" });
          const result = await ctx.api.call("getDbtSyncResult", sync(dep, id));
          if (result.status === 200) {
            const logs = await ctx.api.call("getDbtSyncLogs", sync(dep, id));
            ctx.expect.status(logs, 200, `the logs of sync ${id}`, "logs");
            return;
          }
          await pause();
        }
        throw new NotExercised(`sync ${id} gave no result within ${POLLS} polls ${POLL_GAP_MS} ms apart`);
      },
    },
    {
      id: "dbt-sync.cancel.stops",
      spec: "E14 rule 10",
      level: "MUST",
      title: "Cancelling a running dbt sync stops it: its status changes and stays",
      needs: ["writes", "fixture:deployment"],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const { id, status: started, ops } = await startSync(ctx, dep);
        const res = await ctx.api.call("cancelDbtSync", sync(dep, id));
        if (res.status >= 400 && res.status < 500) throw new NotExercised(`sync ${id} could not be cancelled (${res.status}): it may have finished already`);
        ctx.expect.that(res.status >= 200 && res.status < 300, "the cancel is accepted", { expected: "2xx", got: res.status, res, reason: "cancel" });
        const first = await ctx.api.call("getDbtSync", sync(dep, id));
        ctx.expect.json(first);
        const after = field(ops.poll.record(first), "status|state");
        ctx.expect.that(after !== started, `sync ${id} is no longer ${JSON.stringify(started)} after its cancel`, {
          expected: `a status other than ${JSON.stringify(started)}`,
          got: after,
          res: first,
          reason: "stopped",
        });
        const again = await ctx.api.call("getDbtSync", sync(dep, id));
        ctx.expect.json(again);
        ctx.expect.equal(field(ops.poll.record(again), "status|state"), after, "the cancelled sync stays as it was", { res: again, reason: "stays-stopped" });
      },
    },
    {
      id: "dbt-sync.history.filters",
      spec: "E14 rule 10",
      level: "MUST",
      title: "The dbt sync history filtered by status or by trigger holds only runs of that status or trigger",
      needs: ["fixture:deployment"],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const list = (await documented(ctx)).requireNamed("listDbtSyncs", "lists the dbt sync history");
        const history = (await allRecords(ctx, pathTo("listDbtSyncs", { deploymentId: dep }), {}, "the dbt sync history")).items;
        for (const name of ["status", "trigger"]) {
          const values = (list.enumOf(name) as string[] | undefined) ?? [...new Set(history.map((j) => field(j, name)).filter((v) => typeof v === "string"))];
          if (!values.length) throw new NotExercised(`no run of the history shows a ${name}, and the document lists none`);
          await filterHolds(
            ctx,
            pathTo("listDbtSyncs", { deploymentId: dep }),
            name,
            values,
            name,
            name === "status" ? "only-that-status" : "only-that-trigger",
          );
        }
      },
    },
  ]),
];
