import { AsyncLocalStorage } from "node:async_hooks";
import { Api } from "../transport/api.js";
import { wholeStreamedAnswer } from "../transport/http-stream.js";
import type { Check, Feature, FixtureName, TokenRole } from "../check/check.js";
import type { CheckContext } from "../check/context.js";
import { Expect } from "../api/expect.js";
import { type Fixtures, fixturesFor } from "../check/fixtures.js";
import { isStateChange } from "../model/reasons.js";
import { CheckStopped, runInCheckScope } from "../transport/check-scope.js";
import { DoorRefused, type Exchange, type FullAnswer, type HttpClient, NetworkError } from "../transport/http.js";
import { credentials, openDoor, redactorFor } from "./door.js";
import { InvariantWatch, isInvariant } from "./invariants.js";
import { ClassTally } from "./class-tally.js";
import { requireAnswer, requireRoute, type ServedRoutes } from "../api/preconditions.js";
import { repeatWrites, schedule } from "./schedule.js";
import { Scratch, stillLeft } from "../ledger/scratch.js";
import { notKnown, onePerThing } from "../ledger/leftovers.js";
import { endOfRunSweep, WrittenPlaces } from "../ledger/sweep.js";
import { enterWrites } from "../ledger/door-ledger.js";
import { ServerClock } from "../ledger/server-clock.js";
import type { Schemas } from "../api/schemas.js";
import { ServedReader } from "../served/read.js";
import { OPT_INS, optInGranted, optInNeededBy, type RunSettings, tokenEnvVars } from "../api/settings.js";

export { credentials, redactorFor } from "./door.js";
import { type CheckResult, resultBase, type RunOutcome, type Status } from "./result.js";
import { judge, NETWORK, NOT_RUN_INTERRUPTED, NOT_RUN_LOST, propertyRecurrence, RATE_LIMITED, settle, withRecurrence } from "./verdict.js";

export interface RunHooks {
  onStart?(check: Check): void;
  /** Each result as its check finishes, in no set order (progress counts); onResult follows in the catalogue's order. */
  onFinish?(result: CheckResult): void;
  onResult?(result: CheckResult): void;
  /** Every exchange of the run, discovery and cleanup included (redacted), with the check that sent it (none: discovery). */
  onExchange?(exchange: Exchange, checkId?: string): void;
  /** Polled between checks: true stops the run (SIGINT); cleanup still happens. */
  shouldStop?(): boolean;
  /**
   * Aborting it stops the run: the running check sends nothing more, its requests in flight get
   * the request timeout to finish and are then aborted; the rest are reported as not run; cleanup still happens.
   */
  stop?: AbortSignal;
}

const CHECK_TIMEOUT_MS = { example: 60_000, property: 180_000, model: 180_000, invariant: 0 };
export const RERUNS_OF_A_FAILURE = 2;
/**
 * After this many checks in a row lost the server, and E1 is lost too, the rest are not attempted
 * (each would wait out its timeout). While E1 still answers, only some routes are broken: the run goes on.
 */
const NETWORK_ERRORS_BEFORE_GIVING_UP = 3;
/**
 * Runs the selected checks, up to `settings.concurrency` at once (core/run/schedule.ts keeps apart
 * those that disturb each other), and reports them in their order; each check's creations and
 * changes are cleaned up as soon as it ends.
 */
export async function runChecks(checks: Check[], settings: RunSettings, schemas: Schemas, hooks: RunHooks = {}, door?: HttpClient): Promise<RunOutcome> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const redactor = redactorFor(settings);
  const creds = credentials(settings);
  // Invariants do not run: they watch every exchange of the others, discovery and cleanup included.
  const watch = new InvariantWatch(checks, schemas);
  const written = new WrittenPlaces();
  // Which classes of each input the run sent, and through which checks (issue 29: measured, not declared).
  const classes = new ClassTally();
  // The server's clock where its answers carry no Date header: the ledger's read of a clone's age.
  const clock = new ServerClock();
  const observe = (exchange: Exchange, answer?: FullAnswer) => {
    const scope = checkScope.getStore();
    if (scope?.counting) scope.requests++;
    watch.see(exchange, answer);
    classes.see(exchange, answer, scope?.checkId);
    written.see(exchange, answer);
    clock.see(answer);
    hooks.onExchange?.(exchange, scope?.checkId);
  };
  // The run's one door (core/run/door.ts): the caller's, else one of its own.
  const client = door ?? openDoor(settings);
  const unwatch = client.watch(observe);
  const unwatchStreamed = client.watchStreamed((exchange, head, whole) => {
    classes.seeStreamed(exchange, head, whole);
    // A body read whole as a stream (an error answer, a small export) is an answer like any other: the invariants judge it too.
    if (whole) watch.see(exchange, wholeStreamedAnswer(exchange, head));
  });
  client.phase = "discovery";
  const fixtures = fixturesFor(client, settings.fixtures);
  const discovery = fixtures.api;
  const leftovers: string[] = [];
  // The writes of the run's phases (no check sent them) have a ledger of their own, cleaned up last.
  const runLedger = scratchFor(settings, "run", clock);
  const scratches: Scratch[] = [runLedger];
  // The served document is read once, when a check (or the door's ledger) first asks, and shared with the report sections.
  const reader = new ServedReader(discovery);
  // The door enters every accepted write in the ledger of whoever sent it; not the cleanup's own writes.
  const stopLedger = enterWrites(
    client,
    discovery,
    () => {
      const scope = checkScope.getStore();
      if (scope) return { scratch: scope.scratch, cleaning: !scope.counting };
      return { scratch: runLedger, cleaning: client.phase === "cleanup" || client.phase === "sweep" };
    },
    async () => (await reader.read()).model,
  );
  // The checks that passed: a spec'd route whose owner is among them is shown served (core/api/preconditions.ts).
  const passedChecks = new Set<string>();
  const served = { passed: (id: string) => passedChecks.has(id) };
  const shared = { settings, client, fixtures, schemas, creds, discovery, leftovers, stop: hooks.stop, served, reader };
  const selected = repeatWrites(
    checks.filter((c) => !isInvariant(c)),
    settings.repeat ?? 1,
  );
  let networkErrorsInARow = 0;
  let serverLost: string | undefined;
  let outcome: Awaited<ReturnType<typeof schedule<CheckResult>>> | undefined;
  let left: string[] = [];
  const stopping = () => Boolean(hooks.shouldStop?.() || hooks.stop?.aborted);
  try {
    // Fixtures are found once, before any check runs, so that no check's scratch objects are
    // mistaken for them and every check sees the same ones whatever runs beside it. What discovery
    // could not give is told by each check that needs it (runOne: skipped, blocked or errored).
    // Each is found once (Fixtures caches the search, not its result): all at once, one waiting for another it names.
    const needed = new Set(selected.filter((check) => !unmetNeeds(check, shared)).flatMap(fixtureNeeds));
    await Promise.all([...needed].map((name) => fixtures.get(name).catch(() => undefined)));
    const runCounted = async (check: Check): Promise<CheckResult> => {
      // Named from the seed and the check alone, so that the same seed replays the same requests.
      const env: Env = { ...shared, scratch: scratchFor(settings, check.id, clock) };
      scratches.push(env.scratch);
      const scope: CheckScope = { checkId: check.id, requests: 0, counting: true, scratch: env.scratch };
      const result = await checkScope.run(scope, async () => {
        const first = await runAndClean(check, env);
        return first.status === "failed" ? confirm(check, first, env) : first;
      });
      if (result.status === "passed") passedChecks.add(check.id);
      return redactor.value({ ...result, requests: scope.requests });
    };
    outcome = await schedule<CheckResult>(
      selected,
      async (check) => {
        hooks.onStart?.(check);
        if (networkErrorsInARow >= NETWORK_ERRORS_BEFORE_GIVING_UP && serverLost === undefined) {
          serverLost = await probeLost(shared);
          if (serverLost === undefined) networkErrorsInARow = 0;
        }
        if (serverLost !== undefined)
          return redactor.value<CheckResult>({
            ...resultBase(check),
            status: "errored",
            message: `${NOT_RUN_LOST} (${networkErrorsInARow} checks in a row lost it, then ${serverLost})`,
            durationMs: 0,
          });
        const result = await runCounted(check);
        networkErrorsInARow =
          result.status === "errored" && (result.message.startsWith(NETWORK) || result.message.startsWith(RATE_LIMITED)) ? networkErrorsInARow + 1 : 0;
        return result;
      },
      { concurrency: settings.concurrency ?? 1, shouldStop: stopping, onDone: (_, r) => hooks.onResult?.(r), onFinish: (_, r) => hooks.onFinish?.(r) },
    );
    // A check blocked by a root that then passed ran before the route was shown served: it runs
    // again, alone, and judges what it meets (never blocked by a root cause that passed).
    for (const [i, r] of outcome.done) {
      if (r.status !== "blocked" || !r.root || !passedChecks.has(r.root.check) || stopping()) continue;
      outcome.done.set(i, await runCounted(selected[i]));
    }
  } finally {
    client.phase = "cleanup";
    for (const scratch of [...scratches.slice(1), runLedger]) await cleanUp({ ...shared, scratch });
    stopLedger();
    // The sweep tells what is left, whatever the checks tracked: every place the run wrote to, read for its prefix.
    client.phase = "sweep";
    leftovers.push(...(await endOfRunSweep(discovery, written, settings, Date.parse(startedAt), ownNames(settings, selected))));
    // Each leftover read once more before it is reported: what is gone by now is not.
    left = await stillLeft(leftovers, scratches);
    unwatch();
    unwatchStreamed();
    if (!door) await client.close();
  }
  const ran = [...(outcome?.done.entries() ?? [])].sort(([a], [b]) => a - b).map(([, r]) => r);
  const interrupted = Boolean(outcome?.interrupted) || stopping();
  if (interrupted) ran.push(...notRun(selected, ran));
  const watched = watch.results().map((r) => redactor.value(r));
  for (const r of watched) hooks.onFinish?.(r), hooks.onResult?.(r);
  const results = settle(
    inCatalogueOrder(
      [...ran, ...watched],
      checks.map((c) => c.id),
    ),
  );
  // The same object named by several checks' answers, or by its cleanup and then the sweep, is one leftover, said once.
  return {
    results,
    leftovers: onePerThing([...new Set(left.map((l) => redactor.text(l)))]),
    interrupted,
    durationMs: Math.round(performance.now() - started),
    startedAt,
    servedDocument: reader.made,
    transients: client.transients,
    inputClasses: classes.coverage(results),
  };
}

/** Results in the order of the ids given (a --repeat copy `<id>#2` beside its check; unknown ids last). */
export function inCatalogueOrder(results: CheckResult[], order: string[]): CheckResult[] {
  const position = new Map(order.map((id, i) => [id, i]));
  const rank = (r: CheckResult) => position.get(r.id) ?? position.get(r.id.replace(/#\d+$/, "")) ?? order.length;
  return results
    .map((r, i) => ({ r, i }))
    .sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i)
    .map(({ r }) => r);
}

/** The check whose code is running, for the request count and the onExchange hook. */
interface CheckScope {
  checkId: string;
  requests: number;
  /** Off while the check's objects are cleaned up: cleanup is not the check's own traffic. */
  counting: boolean;
  /** The check's ledger, where the door enters its accepted writes (core/ledger/door-ledger.ts). */
  scratch: Scratch;
}
const checkScope = new AsyncLocalStorage<CheckScope>();

function scratchFor(settings: RunSettings, checkId: string, clock?: ServerClock): Scratch {
  return new Scratch(`${settings.seed.toString(36)}-${shortHash(checkId)}`, clock);
}

/** The names the run's checks and its own ledger give: all its end sweep may remove (core/ledger/sweep.ts endOfRunSweep). */
function ownNames(settings: RunSettings, checks: Check[]): RegExp {
  return new RegExp(`(?:${[...new Set(["run", ...checks.map((c) => c.id)])].map((id) => scratchFor(settings, id).prefix).join("|")})-`);
}

/** Six base-36 characters from a check id (FNV-1a): enough to tell checks' objects apart. */
function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36).padStart(7, "0").slice(-6);
}

/** Whether the server still answers E1 at all (any status will do); if not, what happened. */
async function probeLost(env: Pick<Env, "discovery">): Promise<string | undefined> {
  try {
    await env.discovery.call("listDeployments", {}, { query: { limit: 1 } });
    return undefined;
  } catch (err) {
    if (err instanceof NetworkError) return err.message;
    throw err;
  }
}

/** The checks an interrupted run did not get to, listed so that the report accounts for every selected check. */
function notRun(checks: Check[], results: CheckResult[]): CheckResult[] {
  const done = new Set(results.map((r) => r.id));
  return checks
    .filter((c) => !done.has(c.id))
    .map((c) => ({ ...resultBase(c), status: "skipped", message: NOT_RUN_INTERRUPTED, durationMs: 0, skipKind: "user" }));
}

interface Env {
  settings: RunSettings;
  client: HttpClient;
  fixtures: Fixtures;
  scratch: Scratch;
  schemas: Schemas;
  creds: ReturnType<typeof credentials>;
  discovery: Api;
  leftovers: string[];
  stop?: AbortSignal;
  served: ServedRoutes;
  reader: ServedReader;
}

/**
 * Each check's creations are removed and its changes undone as soon as it ends, so that a re-run
 * starts from the same state and an interrupted run leaves at most one check's worth to clean.
 */
async function runAndClean(check: Check, env: Env): Promise<CheckResult> {
  try {
    return await runOne(check, env);
  } finally {
    await cleanUp(env);
  }
}

async function cleanUp(env: Env): Promise<void> {
  if (env.scratch.pending === 0) return;
  const scope = checkScope.getStore();
  if (scope) scope.counting = false;
  try {
    env.leftovers.push(...(await env.scratch.cleanup(env.discovery).catch((err) => [notKnown(`cleanup failed (${(err as Error).message})`)])));
  } finally {
    if (scope) scope.counting = true;
  }
}

/**
 * A failure is run again on the undisturbed server, every re-run: one that comes back each time is
 * reproducible; one that does not is intermittent, with how many runs failed (core/run/verdict.ts).
 * A state change observed once is not run again (core/model/reasons.ts, kind "state-change").
 */
async function confirm(check: Check, first: CheckResult, env: Env): Promise<CheckResult> {
  // A property confirmed its shrunk case itself (core/run/property.ts): its whole search is not sent twice more, past its request budget.
  const confirmed = propertyRecurrence(first);
  if (confirmed) return confirmed;
  // A state change the exchanges show (a clone that changed its source) is a fact: re-runs build fresh
  // objects, and one that does not change them again cannot contradict it, so none is sent.
  if (isStateChange(first.reason)) return { ...first, recurrence: "reproducible", failedRuns: 1, runs: 1 };
  const again: Status[] = [];
  for (let i = 0; i < RERUNS_OF_A_FAILURE; i++) {
    if (env.stop?.aborted) break;
    again.push((await runAndClean(check, env)).status);
  }
  return withRecurrence(first, again);
}

async function runOne(check: Check, env: Env): Promise<CheckResult> {
  const started = performance.now();
  const done = (judged: Pick<CheckResult, "status" | "message"> & Partial<CheckResult>): CheckResult => ({
    ...resultBase(check),
    durationMs: Math.round(performance.now() - started),
    ...judged,
  });

  const unmet = unmetNeeds(check, env);
  if (unmet) return done({ status: "skipped", message: unmet, skipKind: "user" });

  const log: Exchange[] = [];
  const api = new Api(env.client, env.creds.primary ?? null, log);
  const resolved = new Map<FixtureName, unknown>();
  const ctx: CheckContext = {
    checkId: check.id,
    api,
    callers: () => Object.values(env.creds.roles).map((c) => ({ role: c.role as TokenRole, api: api.with(c) })),
    anonymous: api.with(null),
    as(role) {
      const c = env.creds.roles[role];
      if (!c || !check.needs.includes(`token:${role}`)) throw new Error(`check bug: token:${role} is not declared in needs`);
      return api.with(c);
    },
    expect: new Expect(env.schemas),
    schemas: env.schemas,
    fixture(name) {
      if (!check.needs.includes(`fixture:${name}`)) throw new Error(`check bug: fixture:${name} is not declared in needs`);
      return resolved.get(name) as any;
    },
    require: (res, endpoint, what, usable) => requireAnswer(res, endpoint, what, usable, check.id, env.served),
    requireRoute: (res, endpoint, what) => requireRoute(res, endpoint, what, check.id, env.served),
    scratch: env.scratch,
    settings: env.settings,
    needHere: optInNeededBy(env.settings),
    servedDocument: () => env.reader.read(),
    log,
  };
  try {
    // Fixtures are found outside the check's time scope: they are shared by every check, and one
    // check's timeout must not abort a discovery the others await.
    for (const name of fixtureNeeds(check)) resolved.set(name, await env.fixtures.get(name));
    await runInCheckScope(() => check.run(ctx), {
      ms: env.settings.checkTimeoutMs ?? CHECK_TIMEOUT_MS[check.kind],
      id: check.id,
      stop: env.stop,
      drainMs: env.settings.timeoutMs,
    });
    return done(judge(check.id, refusedAtTheDoor(check.id, env.client), log, true));
  } catch (err) {
    if (err instanceof CheckStopped)
      env.leftovers.push(
        ...err.abortedWrites.map(
          (w) => `${w} was aborted in flight: whatever it made, if anything, is not tracked (its names start with ${env.scratch.prefix})`,
        ),
      );
    return done(judge(check.id, refusedAtTheDoor(check.id, env.client) ?? err, log));
  }
}

/** A request of the check's that the door refused: the check is errored for it, whatever the check made of the error. */
function refusedAtTheDoor(checkId: string, door: HttpClient): DoorRefused | undefined {
  const refused = door.refused.find((r) => r.caller === checkId);
  return refused && new DoorRefused(`refused at the door (a bug of the tool's, not the server's): ${checkId} tried to send ${refused.line}`);
}

/** Why a check cannot run as the user set the run up (writes, tokens), or undefined. Fixtures are resolved in runOne, where discovery's answers decide. */
function unmetNeeds(check: Check, env: Pick<Env, "settings" | "creds">): string | undefined {
  for (const need of check.needs) {
    if (need === "writes" && !env.settings.writes)
      return 'writes not allowed: pass --allow-writes (or "writes": true in the config) to run checks that create or change data';
    if (optInGranted(need, env.settings) === false) return OPT_INS[need as keyof typeof OPT_INS].unmet;
    if (need.startsWith("token:")) {
      const role = need.slice(6) as TokenRole;
      if (!env.creds.roles[role]) return `needs a second token: set tokens.${role} in the config or ${tokenEnvVars[role]}`;
    }
    if (need.startsWith("feature:") && env.settings.features?.[need.slice(8) as Feature] === false)
      return `the config declares ${need.slice(8)} off (features.${need.slice(8)}: false)`;
  }
  return undefined;
}

const fixtureNeeds = (check: Check): FixtureName[] => check.needs.filter((n) => n.startsWith("fixture:")).map((n) => n.slice(8) as FixtureName);
