import { Api } from "./api.js";
import type { Check, FixtureName, TokenRole } from "./check.js";
import type { CheckContext } from "./context.js";
import { Expect } from "./expect.js";
import { Fixtures } from "./fixtures.js";
import { type Credential, type Exchange, HttpClient, NetworkError } from "./http.js";
import { Blocked, CheckFailure, NotExercised, NotVerifiable, type PropertyFailure, Skip } from "./outcome.js";
import { Redactor } from "./redact.js";
import { Scratch } from "./scratch.js";
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
  /** Requests the check sent (discovery and cleanup excluded). */
  requests?: number;
}

export interface RunHooks {
  onStart?(check: Check): void;
  onResult?(result: CheckResult): void;
  /** Every exchange of the run, discovery and cleanup included (redacted). */
  onExchange?(exchange: Exchange): void;
  /** Polled between checks: true stops the run (SIGINT); cleanup still happens. */
  shouldStop?(): boolean;
}

export interface RunOutcome {
  results: CheckResult[];
  leftovers: string[];
  interrupted: boolean;
  durationMs: number;
  startedAt: string;
}

const CHECK_TIMEOUT_MS = { example: 60_000, property: 180_000, model: 180_000 };
const RERUNS_OF_A_FAILURE = 2;
/** After this many checks in a row lost the server, the rest are not attempted (each would wait out its timeout). */
const NETWORK_ERRORS_BEFORE_GIVING_UP = 3;
const NETWORK = "network: ";

export function credentials(settings: RunSettings): { primary?: Credential; roles: Partial<Record<TokenRole, Credential>> } {
  const roles: Partial<Record<TokenRole, Credential>> = {};
  for (const [role, value] of Object.entries(settings.tokens) as [TokenRole, string | undefined][])
    if (value) roles[role] = { role, value, envVar: tokenEnvVars[role] };
  return { primary: settings.token ? { role: "primary", value: settings.token, envVar: tokenEnvVars.primary } : undefined, roles };
}

export function redactorFor(settings: RunSettings): Redactor {
  return new Redactor([settings.token, ...Object.values(settings.tokens)]);
}

/** Runs the selected checks in order, then cleans up what the run created or changed. */
export async function runChecks(checks: Check[], settings: RunSettings, schemas: Schemas, hooks: RunHooks = {}): Promise<RunOutcome> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const redactor = redactorFor(settings);
  const creds = credentials(settings);
  const client = new HttpClient({ baseUrl: settings.baseUrl, timeoutMs: settings.timeoutMs, redactor, credential: creds.primary, observe: hooks.onExchange });
  const discovery = new Api(client, creds.primary ?? null, []);
  const fixtures = new Fixtures(discovery, settings.fixtures);
  // Named from the seed alone, so that the same seed replays the same requests.
  const scratch = new Scratch(settings.seed.toString(36));
  const results: CheckResult[] = [];
  let interrupted = false;
  const leftovers: string[] = [];
  const env: Env = { settings, client, fixtures, scratch, schemas, creds, discovery, leftovers };
  let networkErrorsInARow = 0;
  try {
    for (const check of checks) {
      if (hooks.shouldStop?.()) {
        interrupted = true;
        break;
      }
      hooks.onStart?.(check);
      let result: CheckResult;
      if (networkErrorsInARow >= NETWORK_ERRORS_BEFORE_GIVING_UP) {
        result = { id: check.id, group: check.group, title: check.title, spec: check.spec, level: check.level, kind: check.kind, status: "errored", message: `not run: the server stopped answering (${networkErrorsInARow} checks in a row lost it)`, durationMs: 0 };
      } else {
        result = await runAndClean(check, env);
        if (result.status === "failed") result = await confirm(check, result, env);
        networkErrorsInARow = result.status === "errored" && result.message.startsWith(NETWORK) ? networkErrorsInARow + 1 : 0;
      }
      result = redactor.value(result);
      results.push(result);
      hooks.onResult?.(result);
    }
  } finally {
    await cleanUp(env);
    await client.close();
  }
  return { results, leftovers: leftovers.map((l) => redactor.text(l)), interrupted, durationMs: Math.round(performance.now() - started), startedAt };
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
  env.leftovers.push(...(await env.scratch.cleanup(env.discovery).catch((err) => [`cleanup failed: ${(err as Error).message}`])));
}

/** A failure is run again: one that comes back is reproducible, one that does not, intermittent. */
async function confirm(check: Check, first: CheckResult, env: Env): Promise<CheckResult> {
  for (let i = 0; i < RERUNS_OF_A_FAILURE; i++) {
    const again = await runAndClean(check, env);
    if (again.status !== "failed") return { ...first, recurrence: "intermittent", message: `${first.message} (intermittent: passed when run again)` };
  }
  return { ...first, recurrence: "reproducible" };
}

async function runOne(check: Check, env: Env): Promise<CheckResult> {
  const started = performance.now();
  const base = { id: check.id, group: check.group, title: check.title, spec: check.spec, level: check.level, kind: check.kind };
  const done = (status: Status, message: string, extra: Partial<CheckResult> = {}): CheckResult => ({ ...base, status, message, durationMs: Math.round(performance.now() - started), ...extra });

  const unmet = await unmetNeeds(check, env);
  if (typeof unmet === "string") return done("skipped", unmet, { skipKind: "user" });
  if (unmet instanceof Error) return done("errored", `discovering fixtures: ${unmet.message}`);

  const log: Exchange[] = [];
  const api = new Api(env.client, env.creds.primary ?? null, log);
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
      return unmet.get(name) as any;
    },
    scratch: env.scratch,
    settings: env.settings,
    log,
  };
  try {
    await withTimeout(check.run(ctx), CHECK_TIMEOUT_MS[check.kind], check.id);
    return done("passed", "");
  } catch (err) {
    if (err instanceof Skip) return done("skipped", err.message, { skipKind: "user" });
    if (err instanceof NotVerifiable) return done("skipped", `not verifiable on this server: ${err.message}`, { skipKind: "not-verifiable" });
    if (err instanceof NotExercised) return done("skipped", `not exercised: ${err.message}`, { skipKind: "not-exercised" });
    if (err instanceof Blocked) return done("blocked", err.message, { blockedBy: err.rootCause, exchanges: log.slice(-10) });
    if (err instanceof CheckFailure) {
      const exchange = err.exchange ?? log.at(-1);
      return done("failed", err.message, { expected: err.expected, got: err.got, exchange, curl: exchange?.curl, exchanges: log.slice(-10), property: err.property });
    }
    if (err instanceof NetworkError) return done("errored", `${NETWORK}${err.message}`, { exchange: err.exchange, exchanges: log.slice(-10) });
    return done("errored", `tester error: ${(err as Error)?.stack ?? String(err)}`, { exchanges: log.slice(-10) });
  }
}

/** The skip reason, an error from discovery, or the resolved fixtures. */
async function unmetNeeds(check: Check, env: Env): Promise<string | Error | Map<FixtureName, unknown>> {
  const resolved = new Map<FixtureName, unknown>();
  for (const need of check.needs) {
    if (need === "writes" && !env.settings.writes) return "writes not allowed: pass --allow-writes (or \"writes\": true in the config) to run checks that create or change data";
    if (need === "unremovable-writes" && !(env.settings.writes && env.settings.unremovableWrites))
      return "creates data the API cannot delete (environment or template variables): pass --allow-writes --allow-unremovable-writes, or run against --reference";
    if (need === "deployment-changes" && !(env.settings.writes && env.settings.deploymentChanges))
      return "changes a deployment's version, channel or settings: pass --allow-writes --allow-deployment-changes (or \"deploymentChanges\": true in the config) and name the deployment in fixtures.mutableDeploymentId";
    if (need.startsWith("token:")) {
      const role = need.slice(6) as TokenRole;
      if (!env.creds.roles[role]) return `needs a second token: set tokens.${role} in the config or ${tokenEnvVars[role]}`;
    }
  }
  for (const need of check.needs) {
    if (!need.startsWith("fixture:")) continue;
    const name = need.slice(8) as FixtureName;
    try {
      resolved.set(name, await env.fixtures.get(name));
    } catch (err) {
      if (err instanceof Skip) return err.message;
      return err as Error;
    }
  }
  return resolved;
}

function withTimeout<T>(p: Promise<T>, ms: number, id: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${id} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export function summarise(results: CheckResult[]) {
  const count = (s: Status) => results.filter((r) => r.status === s).length;
  return { total: results.length, passed: count("passed"), failed: count("failed"), blocked: count("blocked"), skipped: count("skipped"), errored: count("errored") };
}

/** 0: no MUST failure or blocked MUST check (nor SHOULD under --strict), nothing errored; 1 otherwise. */
export function exitCodeFor(results: CheckResult[], strict: boolean): 0 | 1 {
  const bad = results.some((r) => r.status === "errored" || ((r.status === "failed" || r.status === "blocked") && (r.level === "MUST" || strict)));
  return bad ? 1 : 0;
}
