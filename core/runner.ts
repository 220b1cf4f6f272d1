import { AsyncLocalStorage } from "node:async_hooks";
import { Api } from "./api.js";
import type { Check, Feature, FixtureName, TokenRole } from "./check.js";
import type { CheckContext } from "./context.js";
import { Expect } from "./expect.js";
import { Fixtures } from "./fixtures.js";
import { secretHeaderValues } from "./headers.js";
import { CheckInterrupted, CheckStopped, CheckTimedOut, runInCheckScope } from "./check-scope.js";
import { type Credential, type Exchange, type FullAnswer, HttpClient, NetworkError, RateLimited } from "./http.js";
import { InvariantWatch, isInvariant } from "./invariants.js";
import { blockSharedDefects } from "./shared-defects.js";
import { Blocked, CheckFailure, NotExercised, NotVerifiable, type PropertyFailure, Skip } from "./outcome.js";
import { requireAnswer, requireRoute, type ServedRoutes } from "./preconditions.js";
import { reproduction } from "./property.js";
import { Redactor } from "./redact.js";
import { repeatWrites, schedule } from "./schedule.js";
import { Scratch } from "./scratch.js";
import { endOfRunSweep, WrittenPlaces } from "./sweep.js";
import type { Schemas } from "./schemas.js";
import { type RunSettings, tokenEnvVars } from "./settings.js";

/**
 * passed / failed: a verdict. blocked: not judged because the server failed a precondition the
 * spec makes its duty (counts as a failure at the check's level). skipped: not judged because of
 * what the user chose or did not configure, or because the scenario never happened (`skipKind`).
 * errored: the tester or the network broke.
 */
export type Status = "passed" | "failed" | "blocked" | "skipped" | "errored";

/** Why a check was skipped: the user's choice, an endpoint whose shape the spec does not show, or a scenario that did not happen. */
export type SkipKind = "user" | "not-verifiable" | "not-exercised";

export interface CheckResult {
  id: string;
  group: string;
  title: string;
  spec: string;
  level: Check["level"];
  kind: Check["kind"];
  status: Status;
  message: string;
  durationMs: number;
  /** For failures: which assertion failed (CheckFailure.reason). */
  reason?: string;
  expected?: string;
  got?: string;
  /** The exchange that shows the failure, and a curl line that replays it. */
  exchange?: Exchange;
  curl?: string;
  exchanges?: Exchange[];
  property?: PropertyFailure;
  /** Whether a failure came back when the check was run again. */
  recurrence?: "reproducible" | "intermittent";
  /** For blocked: the root cause (a check id and what the server did), shared by every check it blocks. */
  blockedBy?: string;
  skipKind?: SkipKind;
  /** Requests the check sent, re-runs of a failure included (discovery and cleanup excluded). */
  requests?: number;
}

export interface RunHooks {
  onStart?(check: Check): void;
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

export interface RunOutcome {
  results: CheckResult[];
  leftovers: string[];
  interrupted: boolean;
  durationMs: number;
  startedAt: string;
}

const CHECK_TIMEOUT_MS = { example: 60_000, property: 180_000, model: 180_000, invariant: 0 };
export const RERUNS_OF_A_FAILURE = 2;
/**
 * After this many checks in a row lost the server, and E1 is lost too, the rest are not attempted
 * (each would wait out its timeout). While E1 still answers, only some routes are broken: the run goes on.
 */
const NETWORK_ERRORS_BEFORE_GIVING_UP = 3;
const NETWORK = "network: ";
/** How a RateLimited error's message begins. */
const RATE_LIMITED = "rate limited: ";
/** What an interrupted run reports for each check it did not get to: the user's choice, not a verdict. */
export const NOT_RUN_INTERRUPTED = "not run: the run was interrupted";

export function credentials(settings: RunSettings): { primary?: Credential; roles: Partial<Record<TokenRole, Credential>> } {
  const roles: Partial<Record<TokenRole, Credential>> = {};
  for (const [role, value] of Object.entries(settings.tokens) as [TokenRole, string | undefined][])
    if (value) roles[role] = { role, value, envVar: tokenEnvVars[role] };
  return { primary: settings.token ? { role: "primary", value: settings.token, envVar: tokenEnvVars.primary } : undefined, roles };
}

export function redactorFor(settings: RunSettings): Redactor {
  return new Redactor([settings.token, ...Object.values(settings.tokens), ...secretHeaderValues(settings.headers)]);
}

/**
 * Runs the selected checks, up to `settings.concurrency` at once (core/schedule.ts keeps apart
 * those that disturb each other), and reports them in their order; each check's creations and
 * changes are cleaned up as soon as it ends.
 */
export async function runChecks(checks: Check[], settings: RunSettings, schemas: Schemas, hooks: RunHooks = {}): Promise<RunOutcome> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const redactor = redactorFor(settings);
  const creds = credentials(settings);
  // Invariants do not run: they watch every exchange of the others, discovery and cleanup included.
  const watch = new InvariantWatch(checks, schemas);
  const written = new WrittenPlaces();
  const observe = (exchange: Exchange, answer?: FullAnswer) => {
    const scope = checkScope.getStore();
    if (scope?.counting) scope.requests++;
    watch.see(exchange, answer);
    written.see(exchange, answer);
    hooks.onExchange?.(exchange, scope?.checkId);
  };
  const client = new HttpClient({ baseUrl: settings.baseUrl, timeoutMs: settings.timeoutMs, redactor, credential: creds.primary, observe, maxPages: settings.maxPages, headers: settings.headers, proxy: settings.proxy });
  const discovery = new Api(client, creds.primary ?? null, []);
  const fixtures = new Fixtures(discovery, settings.fixtures);
  const leftovers: string[] = [];
  const scratches: Scratch[] = [];
  // The checks that passed: a spec'd route whose owner is among them is shown served (core/preconditions.ts).
  const passedChecks = new Set<string>();
  const served = { passed: (id: string) => passedChecks.has(id) };
  const shared = { settings, client, fixtures, schemas, creds, discovery, leftovers, stop: hooks.stop, served };
  const selected = repeatWrites(checks.filter((c) => !isInvariant(c)), settings.repeat ?? 1);
  let networkErrorsInARow = 0;
  let serverLost: string | undefined;
  let outcome: Awaited<ReturnType<typeof schedule<CheckResult>>> | undefined;
  const stopping = () => Boolean(hooks.shouldStop?.() || hooks.stop?.aborted);
  try {
    // Fixtures are found once, before any check runs, so that no check's scratch objects are
    // mistaken for them and every check sees the same ones whatever runs beside it. What discovery
    // could not give is told by each check that needs it (runOne: skipped, blocked or errored).
    for (const check of selected) for (const name of fixtureNeeds(check)) if (!unmetNeeds(check, shared)) await fixtures.get(name).catch(() => undefined);
    const runCounted = async (check: Check): Promise<CheckResult> => {
      // Named from the seed and the check alone, so that the same seed replays the same requests.
      const env: Env = { ...shared, scratch: scratchFor(settings, check.id) };
      scratches.push(env.scratch);
      const scope: CheckScope = { checkId: check.id, requests: 0, counting: true };
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
          return redactor.value({ id: check.id, group: check.group, title: check.title, spec: check.spec, level: check.level, kind: check.kind, status: "errored", message: `not run: the server stopped answering (${networkErrorsInARow} checks in a row lost it, then ${serverLost})`, durationMs: 0 } as CheckResult);
        const result = await runCounted(check);
        networkErrorsInARow = result.status === "errored" && (result.message.startsWith(NETWORK) || result.message.startsWith(RATE_LIMITED)) ? networkErrorsInARow + 1 : 0;
        return result;
      },
      { concurrency: settings.concurrency ?? 1, shouldStop: stopping, onDone: (_, r) => hooks.onResult?.(r) },
    );
    // A check blocked by a root that then passed ran before the route was shown served: it runs
    // again, alone, and judges what it meets (never blocked by a root cause that passed).
    for (const [i, r] of outcome.done) {
      if (r.status !== "blocked" || !passedChecks.has(rootOf(r)) || stopping()) continue;
      outcome.done.set(i, await runCounted(selected[i]));
    }
  } finally {
    for (const scratch of scratches) await cleanUp({ ...shared, scratch });
    // The sweep tells what is left, whatever the checks tracked: every place the run wrote to, read for its prefix.
    leftovers.push(...(await endOfRunSweep(discovery, written, settings, Date.parse(startedAt))));
    await client.close();
  }
  const ran = [...(outcome?.done.entries() ?? [])].sort(([a], [b]) => a - b).map(([, r]) => r);
  const interrupted = Boolean(outcome?.interrupted) || stopping();
  if (interrupted) ran.push(...notRun(selected, ran));
  const watched = watch.results().map((r) => redactor.value(r));
  for (const r of watched) hooks.onResult?.(r);
  const results = blockSharedDefects(inCatalogueOrder([...ran, ...watched], checks.map((c) => c.id)));
  return { results, leftovers: leftovers.map((l) => redactor.text(l)), interrupted, durationMs: Math.round(performance.now() - started), startedAt };
}

/** Results in the order of the ids given (a --repeat copy `<id>#2` beside its check; unknown ids last). */
export function inCatalogueOrder(results: CheckResult[], order: string[]): CheckResult[] {
  const position = new Map(order.map((id, i) => [id, i]));
  const rank = (r: CheckResult) => position.get(r.id) ?? position.get(r.id.replace(/#\d+$/, "")) ?? order.length;
  return results.map((r, i) => ({ r, i })).sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i).map(({ r }) => r);
}

/** The check whose code is running, for the request count and the onExchange hook. */
interface CheckScope {
  checkId: string;
  requests: number;
  /** Off while the check's objects are cleaned up: cleanup is not the check's own traffic. */
  counting: boolean;
}
const checkScope = new AsyncLocalStorage<CheckScope>();

function scratchFor(settings: RunSettings, checkId: string): Scratch {
  return new Scratch(`${settings.seed.toString(36)}-${shortHash(checkId)}`);
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
    await env.discovery.get("/api/v1/deployments", { limit: 1 });
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
    .map((c) => ({ id: c.id, group: c.group, title: c.title, spec: c.spec, level: c.level, kind: c.kind, status: "skipped", message: NOT_RUN_INTERRUPTED, durationMs: 0, skipKind: "user" }));
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
}

/** The owner check a blocked result names (`<root id>: <method> <path> ...`). */
const rootOf = (r: CheckResult) => r.blockedBy?.split(":")[0] ?? "";

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
    env.leftovers.push(...(await env.scratch.cleanup(env.discovery).catch((err) => [`cleanup failed: ${(err as Error).message}`])));
  } finally {
    if (scope) scope.counting = true;
  }
}

/** A failure is run again: one that comes back is reproducible, one that does not, intermittent. */
async function confirm(check: Check, first: CheckResult, env: Env): Promise<CheckResult> {
  // A property confirmed its shrunk case itself (core/property.ts): its whole search is not sent twice more, past its request budget.
  if (first.property?.reproducible === "intermittent") return { ...first, recurrence: "intermittent", message: `${first.message} (intermittent: the shrunk case passed when run again)` };
  if (first.property?.reproducible) return { ...first, recurrence: "reproducible" };
  for (let i = 0; i < RERUNS_OF_A_FAILURE; i++) {
    if (env.stop?.aborted) return first;
    const again = await runAndClean(check, env);
    if (again.status !== "failed") return { ...first, recurrence: "intermittent", message: `${first.message} (intermittent: passed when run again)` };
  }
  return { ...first, recurrence: "reproducible" };
}

async function runOne(check: Check, env: Env): Promise<CheckResult> {
  const started = performance.now();
  const base = { id: check.id, group: check.group, title: check.title, spec: check.spec, level: check.level, kind: check.kind };
  const done = (status: Status, message: string, extra: Partial<CheckResult> = {}): CheckResult => ({ ...base, status, message, durationMs: Math.round(performance.now() - started), ...extra });

  const unmet = unmetNeeds(check, env);
  if (unmet) return done("skipped", unmet, { skipKind: "user" });

  const log: Exchange[] = [];
  const api = new Api(env.client, env.creds.primary ?? null, log);
  const resolved = new Map<FixtureName, unknown>();
  const ctx: CheckContext = {
    checkId: check.id,
    api,
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
    log,
  };
  try {
    // Fixtures are found outside the check's time scope: they are shared by every check, and one
    // check's timeout must not abort a discovery the others await.
    for (const name of fixtureNeeds(check)) resolved.set(name, await env.fixtures.get(name));
    await runInCheckScope(() => check.run(ctx), { ms: env.settings.checkTimeoutMs ?? CHECK_TIMEOUT_MS[check.kind], id: check.id, stop: env.stop, drainMs: env.settings.timeoutMs });
    return done("passed", "");
  } catch (err) {
    if (err instanceof Skip) return done("skipped", err.message, { skipKind: "user" });
    if (err instanceof NotVerifiable) return done("skipped", `not verifiable on this server: ${err.message}`, { skipKind: "not-verifiable" });
    if (err instanceof NotExercised) return done("skipped", `not exercised: ${err.message}`, { skipKind: "not-exercised" });
    if (err instanceof Blocked) {
      const exchange = err.about.exchange;
      // A fixture its own endpoint failed to give: the owner fails, it is not blocked by itself.
      if (err.about.rootCheck === check.id) return done("failed", err.about.detail ?? err.message, { expected: "a usable 2xx answer", got: exchange?.status === undefined ? undefined : `${exchange.status} ${exchange.responseExcerpt?.slice(0, 160) ?? ""}`.trim(), exchange, curl: exchange?.curl, exchanges: log.slice(-10) });
      return done("blocked", err.message, { blockedBy: err.rootCause, exchange, curl: exchange?.curl, exchanges: log.slice(-10) });
    }
    if (err instanceof CheckFailure) {
      const exchange = err.exchange ?? log.at(-1);
      // A property's curl lines are its shrunk case's whole sequence, setup included: they alone reproduce it.
      const curl = (err.property && reproduction(err.property)) ?? exchange?.curl;
      return done("failed", err.message, { reason: err.reason, expected: err.expected, got: err.got, exchange, curl, exchanges: log.slice(-10), property: err.property });
    }
    if (err instanceof CheckStopped)
      env.leftovers.push(...err.abortedWrites.map((w) => `${w} was aborted in flight: whatever it made, if anything, is not tracked (its names start with ${env.scratch.prefix})`));
    if (err instanceof CheckTimedOut) return done("errored", err.message, { exchanges: log.slice(-10) });
    if (err instanceof CheckInterrupted) return done("skipped", err.message, { skipKind: "user", exchanges: log.slice(-10) });
    if (err instanceof RateLimited) return done("errored", err.message, { exchange: err.exchange, exchanges: log.slice(-10) });
    if (err instanceof NetworkError) return done("errored", `${NETWORK}${err.message}`, { exchange: err.exchange, exchanges: log.slice(-10) });
    return done("errored", `tester error: ${(err as Error)?.stack ?? String(err)}`, { exchanges: log.slice(-10) });
  }
}

/** Why a check cannot run as the user set the run up (writes, tokens), or undefined. Fixtures are resolved in runOne, where discovery's answers decide. */
function unmetNeeds(check: Check, env: Pick<Env, "settings" | "creds">): string | undefined {
  for (const need of check.needs) {
    if (need === "writes" && !env.settings.writes) return "writes not allowed: pass --allow-writes (or \"writes\": true in the config) to run checks that create or change data";
    if (need === "unremovable-writes" && !(env.settings.writes && env.settings.unremovableWrites))
      return "creates data the API cannot delete (environment or template variables): pass --allow-writes --allow-unremovable-writes, or run against --reference";
    if (need === "deployment-changes" && !(env.settings.writes && env.settings.deploymentChanges))
      return "changes a deployment's version, channel or settings: pass --allow-writes --allow-deployment-changes (or \"deploymentChanges\": true in the config) and name the deployment in fixtures.mutableDeploymentId";
    if (need === "admin-writes" && !(env.settings.writes && env.settings.adminWrites))
      return "changes users, user attributes, tenant settings or integrations: pass --allow-writes --allow-admin-writes (or \"adminWrites\": true in the config), or run against --reference";
    if (need.startsWith("token:")) {
      const role = need.slice(6) as TokenRole;
      if (!env.creds.roles[role]) return `needs a second token: set tokens.${role} in the config or ${tokenEnvVars[role]}`;
    }
    if (need.startsWith("feature:") && env.settings.features?.[need.slice(8) as Feature] === false) return `the config declares ${need.slice(8)} off (features.${need.slice(8)}: false)`;
  }
  return undefined;
}

const fixtureNeeds = (check: Check): FixtureName[] => check.needs.filter((n) => n.startsWith("fixture:")).map((n) => n.slice(8) as FixtureName);


/**
 * The run in numbers. skippedBy splits the skips: the user's choice, not verifiable on this server
 * (an E14 endpoint), not exercised (the scenario did not happen). mustRules: a MUST check states
 * one rule of the spec; the rule counts as verified when its check ran and passed (not skipped,
 * blocked, failed or errored), out of the MUST checks of the run.
 */
export function summarise(results: CheckResult[]) {
  const count = (s: Status) => results.filter((r) => r.status === s).length;
  const skipped = (k: SkipKind) => results.filter((r) => r.status === "skipped" && (r.skipKind ?? "user") === k).length;
  const must = results.filter((r) => r.level === "MUST");
  return {
    total: results.length,
    passed: count("passed"),
    failed: count("failed"),
    blocked: count("blocked"),
    skipped: count("skipped"),
    errored: count("errored"),
    skippedBy: { user: skipped("user"), notVerifiable: skipped("not-verifiable"), notExercised: skipped("not-exercised") },
    mustRules: { verified: must.filter((r) => r.status === "passed").length, total: must.length },
    requests: results.reduce((n, r) => n + (r.requests ?? 0), 0),
  };
}

/** Blocked checks grouped under their root cause, most blocking first: one root failure, N blocked. */
export function rootCauses(results: CheckResult[]): { rootCause: string; blocked: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const r of results) if (r.status === "blocked" && r.blockedBy) groups.set(r.blockedBy, [...(groups.get(r.blockedBy) ?? []), r.id]);
  return [...groups].map(([rootCause, blocked]) => ({ rootCause, blocked })).sort((a, b) => b.blocked.length - a.blocked.length);
}

/** 0: no MUST failure or blocked MUST check (nor SHOULD under --strict), nothing errored; 1 otherwise. */
export function exitCodeFor(results: CheckResult[], strict: boolean): 0 | 1 {
  const bad = results.some((r) => r.status === "errored" || ((r.status === "failed" || r.status === "blocked") && (r.level === "MUST" || strict)));
  return bad ? 1 : 0;
}
