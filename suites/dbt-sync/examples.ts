import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { field } from "../../core/served/served-operations.js";
import type { ServedOperation } from "../../core/served/served-operations.js";
import { pathTo } from "../../core/transport/client.js";
import { accepted, allRecords, bodyWith, createdIn, documented, ok2xx, ownBranch, servedOrPlain, startDbtSync } from "../lib/e14.js";
import { filterHolds } from "../lib/filter-holds.js";
import { WRITES } from "../lib/needs.js";

/**
 * E14 rules of dbt sync: a sync starts (with the optional branchName and ref, run for that
 * branch), is polled, cancelled, gives a result and logs, and keeps a history that filters by
 * status and trigger.
 */
const POLLS = 20;
const POLL_GAP_MS = 100;
/** Rounds of POLLS a check that needs a finished sync waits for one (about ten seconds). */
const FINISH_ROUNDS = 5;

/** The placeholders of a sync of the deployment. */
const sync = (dep: string, id: string | number) => ({ deploymentId: dep, syncJobId: id });
const pause = () => new Promise((r) => setTimeout(r, POLL_GAP_MS));

/** A sync started, and its poll (an answer read through its documentation, where the document has it). */
/** The statuses a sync keeps for good once in them (E14: queued, running, succeeded, failed, cancelled). */
const FINAL_STATUSES = ["succeeded", "failed", "cancelled", "canceled"];

/** A sync's record once a poll shows it in a status it keeps for good, or as the last of POLLS polls shows it. */
async function finalRecord(ctx: CheckContext, dep: string, id: string | number, poll: Pick<ServedOperation, "record">): Promise<unknown> {
  let record: unknown;
  for (let i = 0; i < POLLS; i++) {
    const res = await ctx.api.call("getDbtSync", sync(dep, id));
    record = ok2xx(res) && res.isJson ? poll.record(res) : undefined;
    const status = field(record, "status");
    if (typeof status !== "string" || FINAL_STATUSES.includes(status)) return record;
    await pause();
  }
  return record;
}

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

/**
 * Starts a sync and cancels it: at once, or (`later`) once a poll shows it in a state other than
 * the one it started in, without a result yet. The cancel must stop it: its status then is not the
 * one it was cancelled in, and still the same after a few polls' time. False where the sync could
 * not be cancelled in that state (it finished first, or the cancel was refused with a 4xx).
 */
async function cancelled(ctx: CheckContext, dep: string, later: boolean): Promise<boolean> {
  const { id, status: started, ops } = await startSync(ctx, dep);
  const statusOf = async () => {
    const poll = await ctx.api.call("getDbtSync", sync(dep, id));
    ctx.expect.json(poll);
    return { poll, status: field(ops.poll.record(poll), "status|state") };
  };
  let at = started;
  if (later) {
    for (let i = 0; i < POLLS && at === started; i++) {
      await pause();
      at = (await statusOf()).status;
    }
    if (at === started || (await ctx.api.call("getDbtSyncResult", sync(dep, id))).status === 200) return false;
  }
  const res = await ctx.api.call("cancelDbtSync", sync(dep, id));
  if (res.status >= 400 && res.status < 500) return false;
  const when = `cancelled while ${JSON.stringify(at)}`;
  ctx.expect.that(res.status >= 200 && res.status < 300, `the cancel of sync ${id}, ${when}, is accepted`, {
    expected: "2xx",
    got: res.status,
    res,
    reason: "cancel",
  });
  const after = await statusOf();
  ctx.expect.that(after.status !== at, `sync ${id}, ${when}, is no longer ${JSON.stringify(at)}`, {
    expected: `a status other than ${JSON.stringify(at)}`,
    got: after.status,
    res: after.poll,
    reason: "stopped",
  });
  // A while later: a cancel the server dropped shows when the sync goes on to finish.
  for (let i = 0; i < 5; i++) await pause();
  const again = await statusOf();
  ctx.expect.equal(again.status, after.status, `sync ${id}, ${when}, stays as it was after the cancel`, { res: again.poll, reason: "stays-stopped" });
  return true;
}

/**
 * The history filtered by each status and each trigger (the document's values, else those the
 * history shows), and by both at once where the history shows two statuses to tell apart
 * (`needBoth`: else the scenario did not happen).
 */
async function historyFiltersHold(ctx: CheckContext, dep: string, needBoth = false): Promise<void> {
  const path = pathTo("listDbtSyncs", { deploymentId: dep });
  const list = (await documented(ctx)).requireNamed("listDbtSyncs", "lists the dbt sync history");
  const history = (await allRecords(ctx, path, {}, "the dbt sync history")).items;
  for (const name of ["status", "trigger"]) {
    const values = (list.enumOf(name) as string[] | undefined) ?? [...new Set(history.map((j) => field(j, name)).filter((v) => typeof v === "string"))];
    if (!values.length) throw new NotExercised(`no run of the history shows a ${name}, and the document lists none`);
    await filterHolds(ctx, path, name, values, name, name === "status" ? "only-that-status" : "only-that-trigger");
  }
  // Both filters at once (rule 2: parameters combined): each still holds, where the history has two statuses to tell apart.
  const seen = (name: string) => [...new Set(history.map((j) => field(j, name)).filter((v): v is string => typeof v === "string"))];
  const [statuses, triggers] = [seen("status"), seen("trigger")];
  if (statuses.length < 2 || !triggers.length) {
    if (needBoth)
      throw new NotExercised(`the history shows ${statuses.length} status(es) and ${triggers.length} trigger(s): both filters at once cannot be told apart`);
    return;
  }
  for (const status of statuses.slice(0, 3))
    for (const trigger of triggers.slice(0, 2)) {
      const { res, items } = await allRecords(ctx, path, { status, trigger }, `the history filtered by status=${status}&trigger=${trigger}`);
      const others = items.filter((j) => (field(j, "status") ?? status) !== status || (field(j, "trigger") ?? trigger) !== trigger);
      ctx.expect.equal(
        others.map((j) => `${field(j, "id")}: ${field(j, "status")}, ${field(j, "trigger")}`),
        [],
        `status=${status}&trigger=${trigger} lists only runs of that status and that trigger`,
        { res, reason: "both-filters" },
      );
    }
}

export const dbtSyncChecks = [
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
      title:
        "Cancelling a dbt sync stops it, whether cancelled as soon as it starts or once it has moved on to a later state: its status changes and stays, also a while later",
      needs: ["writes", "fixture:deployment"],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        // Each state a sync passes through before it finishes is a class of the cancel's input (rule 2): the first, and a later one where the poll shows one.
        const first = await cancelled(ctx, dep, false);
        const later = await cancelled(ctx, dep, true);
        if (!first && !later) throw new NotExercised("no sync of the run could be cancelled before it finished");
      },
    },
    {
      id: "dbt-sync.cancel.refused-leaves-job",
      spec: "E14 rule 10 (poll status; cancel; result)",
      // SHOULD: that a refused cancel changes nothing is implied by the refusal; the spec states no rule for cancelling a finished sync.
      level: "SHOULD",
      title: "A cancel refused for a sync that has finished leaves it as it was: its status, and how its result answers",
      needs: ["writes", "fixture:deployment"],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const { id, ops } = await startSync(ctx, dep);
        // A sync may take seconds (several servers' take three or more): polled for up to FINISH_ROUNDS rounds of POLLS.
        let status: unknown;
        for (let round = 0; round < FINISH_ROUNDS && !(typeof status === "string" && FINAL_STATUSES.includes(status)); round++)
          status = field(await finalRecord(ctx, dep, id, ops.poll), "status");
        if (typeof status !== "string" || !FINAL_STATUSES.includes(status))
          throw new NotExercised(`sync ${id} did not finish within ${FINISH_ROUNDS * POLLS} polls ${POLL_GAP_MS} ms apart`);
        const resultBefore = await ctx.api.call("getDbtSyncResult", sync(dep, id));
        const cancel = await ctx.api.call("cancelDbtSync", sync(dep, id));
        if (cancel.status < 400 || cancel.status >= 500)
          throw new NotExercised(`cancelling sync ${id}, ${status}, answered ${cancel.status}: the server did not refuse it`);
        // A server once marked the job cancelled before it saw that it had finished, and then refused.
        const poll = await ctx.api.call("getDbtSync", sync(dep, id));
        ctx.expect.equal(
          field(ok2xx(poll) ? ops.poll.record(poll) : undefined, "status"),
          status,
          `sync ${id} keeps its status ${status} after the refused cancel (${cancel.status})`,
          {
            res: poll,
            reason: "refused-cancel-kept",
          },
        );
        const resultAfter = await ctx.api.call("getDbtSyncResult", sync(dep, id));
        ctx.expect.equal(resultAfter.status, resultBefore.status, `the result of sync ${id} answers as it did before the refused cancel`, {
          res: resultAfter,
          reason: "refused-cancel-kept",
        });
      },
    },
    {
      id: "dbt-sync.history.filters",
      spec: "E14 rule 10",
      level: "MUST",
      title: "The dbt sync history filtered by status, by trigger, or by both at once holds only runs of that status and that trigger",
      needs: ["fixture:deployment"],
      run: (ctx) => historyFiltersHold(ctx, ctx.fixture("deployment").id),
    },
    {
      id: "dbt-sync.history.filters-own-runs",
      spec: "E14 rule 10",
      level: "MUST",
      title:
        "With two syncs of the run's own in it, one cancelled, the dbt sync history filtered by status, by trigger, or by both holds only runs of that status and that trigger",
      needs: ["writes", "fixture:deployment"],
      async run(ctx) {
        // The scenario made, not waited for: a history of one status cannot show a filter that is ignored.
        const dep = ctx.fixture("deployment").id;
        const kept = await startSync(ctx, dep);
        const { id, ops } = await startSync(ctx, dep);
        ctx.require(
          await ctx.api.call("cancelDbtSync", sync(dep, id)),
          "E14",
          `cancelling sync ${id}, so that the history holds two statuses`,
          (r) => r.status < 300,
        );
        await historyFiltersHold(ctx, dep, true);
        // Each filter lists what it matches too: a run of the run's own under its trigger, and under a status it keeps for
        // good (a server once filtered by the status a run was created in, and listed no finished run under its own).
        const path = pathTo("listDbtSyncs", { deploymentId: dep });
        for (const own of [kept.id, id]) {
          const record = await finalRecord(ctx, dep, own, ops.poll);
          for (const [name, value] of [
            ["status", field(record, "status")],
            ["trigger", field(record, "trigger")],
          ] as const) {
            if (typeof value !== "string" || (name === "status" && !FINAL_STATUSES.includes(value))) continue;
            const { res, items } = await allRecords(ctx, path, { [name]: value }, `the history filtered by ${name}=${value}`);
            ctx.expect.that(
              items.some((j) => String(field(j, "id")) === String(own)),
              `${name}=${value} lists sync ${own}, whose ${name} is ${value}`,
              { expected: `sync ${own} listed`, got: items.map((j) => `${field(j, "id")}: ${field(j, name)}`), res, reason: "listed-under-its-value" },
            );
          }
        }
      },
    },
    {
      id: "dbt-sync.start.branch-and-ref",
      spec: "E14 rule 10",
      level: "MUST",
      title: "A dbt sync starts with the optional branchName and ref, and runs for that branch",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const op = doc.requireNamed("startDbtSync", "starts a dbt sync");
        const branch = await ownBranch(ctx, doc, dep);
        // The branch's own name is a ref every git server resolves.
        const body = op.body({ "branchName|branch": branch, ref: branch });
        const res = await startDbtSync(ctx, dep, body);
        ctx.requireRoute(res, "E14", "starting a dbt sync");
        // 409 is a conflict with the state (a sync already running), not with the fields sent: nothing shown about them.
        if (res.status === 409)
          throw new NotExercised(`the server would not start a sync now (409 ${res.text.slice(0, 160)}): the optional fields were not tried`);
        const underTest = ["branchName", "branch", "ref", branch];
        accepted(ctx, res, { body, op, underTest }, `a sync of ${branch} at ref ${branch} starts`, "branch-sync-started");
        const { id } = createdIn(ctx, op, res, "starting a dbt sync");
        const job = { deploymentId: dep, syncJobId: id };
        ctx.scratch.onCleanup(`cancel dbt sync ${id}`, async () => void (await ctx.api.call("cancelDbtSync", job)));
        const poll = await ctx.api.call("getDbtSync", job);
        const pollOp = doc.findNamed("getDbtSync");
        const shown = ok2xx(poll) && poll.isJson ? field(pollOp ? pollOp.record(poll) : poll.body, "branchName|branch") : undefined;
        if (shown === undefined) throw new NotVerifiable(`the sync ${id} (start and poll) shows no branchName: that it runs for ${branch} cannot be read`);
        ctx.expect.equal(shown, branch, `sync ${id} runs for the branch it was started for`, { res: poll, reason: "branch-kept" });
      },
    },
  ]),
];
