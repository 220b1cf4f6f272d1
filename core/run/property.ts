import fc from "fast-check";
import { tookWrite } from "../api/methods.js";
import type { Api } from "../transport/api.js";
import type { CheckContext } from "../check/context.js";
import type { Exchange } from "../transport/http.js";
import { NetworkError } from "../transport/http.js";
import { Blocked, CheckFailure, NotExercised, NotVerifiable, Skip } from "../model/outcome.js";

export interface PropertyOptions<T = unknown> {
  /** Fewer trials for properties whose trial is expensive; never more than --runs. */
  maxRuns?: number;
  /** Bound on the whole search, shrinking included. */
  timeLimitMs?: number;
  /**
   * Requests the property may send in all: the search, the shrinking and the confirming replay
   * (and a batch of cases at once that did not count, sharedObject).
   * Against a remote server every request costs a round trip. No case is started that would take
   * the count past the budget (judged by the costliest case so far, one case kept back for the
   * replay); the search then ends, or the shrinking stops at the smallest failure found so far.
   */
  maxRequests?: number;
  /**
   * Cases that touch nothing another case of the property reads (reads only, or objects each case
   * makes for itself) may run this many at once: against a remote server the search then takes a
   * fraction of its round trips (issue 21, the budget). They are the cases fast-check draws from the
   * seed, in its order, and their verdicts are taken in that order: the first failure in order is
   * the one shrunk, as in a search one case at a time. Shrinking runs one case at a time.
   */
  casesAtOnce?: number;
  /**
   * With casesAtOnce: the cases act on one object that each should leave as it was (a write each
   * must refuse, then a read-back). Cases at once count only while none of them failed and no
   * write of theirs was taken (a 2xx): a write taken by one case, wrongly or by a lenient reading
   * put back, could fail another case or hide its failure. From the first batch that does not
   * count, its cases and the rest are judged one at a time, as fast-check draws them.
   */
  sharedObject?: boolean;
  /**
   * Cases sent first on every run, whatever the seed draws, on top of its runs: the classes of an
   * input the rule must meet on every run (bodies that are not JSON in the ways lenient parsers
   * take), which a seed's draws reach on some seeds only. Not shrunk: each is reported as sent, so
   * each should be one small case. Their requests are on top of the property's budget too: the
   * drawn cases get as many as without them.
   */
  examples?: T[];
}

const DEFAULT_TIME_LIMIT_MS = 60_000;
/** Fewer completed runs than this (or than asked, if fewer were asked) is not a property that held: it was not exercised. */
export const MIN_RUNS = 10;
/**
 * A property's requests when it names none: at 40 ms a round trip, four seconds of one check's
 * slot; about a hundred cases of one request, or some thirty of three (issue 21, the budget: the
 * whole run within 30 s at 40 ms a request).
 */
export const DEFAULT_REQUEST_BUDGET = 100;
/** How many budgets the first MIN_RUNS cases may spend, so that a costly server still gets a verdict. */
export const OUTLAY_FOR_A_VERDICT = 3;
/**
 * A workspace case (a batch moved, a model step) makes its items, acts, reads each back, and the
 * ledger confirms what it deletes as the run's own (core/ledger/scratch.ts): 15 to 35 requests a case,
 * so this budget affords the MIN_RUNS completed cases a verdict needs, with room to shrink.
 */
export const WORKSPACE_REQUEST_BUDGET = 250;
/** The workspace model run's steps chain several such cases: it may spend more than any other (issue 21: never above 400). */
export const MODEL_REQUEST_BUDGET = 300;

/**
 * How many cases of a property run at once where they may (PropertyOptions.casesAtOnce): with
 * --concurrency 8, at most 32 requests of properties in flight, a load a server that takes eight
 * clients takes too; at 40 ms a round trip, such a search takes a quarter of the time.
 */
export const CASES_AT_ONCE = 4;

/** Each property draws from its own stream, fixed by the run's seed and the check's id. */
export function propertySeed(runSeed: number, checkId: string): number {
  let h = runSeed | 0;
  for (let i = 0; i < checkId.length; i++) h = (Math.imul(h ^ checkId.charCodeAt(i), 0x5bd1e995) + 0x6b43a9b5) | 0;
  return h;
}

/** A case that ended without a verdict on the rule: the network broke, or a precondition the server owes failed. */
type Unjudged = NetworkError | Blocked | NotVerifiable;
const unjudged = (err: unknown): err is Unjudged => err instanceof NetworkError || err instanceof Blocked || err instanceof NotVerifiable;
/** A case whose scenario did not happen here. */
const discarded = (err: unknown) => err instanceof Skip || err instanceof NotExercised;

/**
 * Runs `trial` on values drawn from `arb`, each trial with its own exchange log. On a failure
 * fast-check shrinks it within what is left of the request budget and the time limit; the shrunk
 * case is then run once more to confirm it still breaks the rule and to record its exact requests,
 * which the report prints as curl lines (with the writes the check sent before the search, which
 * set up what the case acts on, so that the lines alone reproduce it).
 * A network error is not a counterexample: it ends the property at once as errored, unshrunk;
 * neither is a trial's precondition that the server failed (blocked, not verifiable): it ends the
 * property so. A property that completed fewer than MIN_RUNS runs (cut off by its time limit or
 * its request budget, or its cases discarded) was not exercised, whatever it saw.
 */
export async function forAll<T>(
  ctx: CheckContext,
  arb: fc.Arbitrary<T>,
  trial: (value: T, api: Api) => Promise<void>,
  opts: PropertyOptions<T> = {},
): Promise<void> {
  const seed = propertySeed(ctx.settings.seed, ctx.checkId);
  const replay = ctx.settings.replay?.checkId === ctx.checkId ? ctx.settings.replay.path : undefined;
  const examples = opts.examples ?? [];
  const numRuns = Math.min(ctx.settings.runs, opts.maxRuns ?? Infinity) + examples.length;
  const setup = ctx.log.filter((e) => e.method !== "GET");
  const asked = replay ? 1 : numRuns;
  let stopped: Unjudged | undefined;
  let spent = 0;
  let costliest = 0;
  let judged = 0;
  // The cases a verdict needs may spend up to OUTLAY_FOR_A_VERDICT budgets (a server that serves
  // small pages makes each read cost more): a verdict is worth more than the requests saved.
  const budget = () => (opts.maxRequests ?? DEFAULT_REQUEST_BUDGET) * (judged < Math.min(MIN_RUNS, asked) ? OUTLAY_FOR_A_VERDICT : 1);
  const isExample = new Set<unknown>(examples);
  const run = async (value: T, log: Exchange[]) => {
    try {
      await trial(value, ctx.api.logging(log));
    } finally {
      if (!isExample.has(value)) spent += log.length;
      costliest = Math.max(costliest, log.length);
    }
  };
  const withinBudget = (cases: number) => spent + (cases + 1) * costliest <= budget();
  /** One case, judged: what it threw, if anything. */
  const judge = async (value: T, log: Exchange[] = []): Promise<unknown> => {
    try {
      await run(value, log);
      return undefined;
    } catch (err) {
      return err ?? new Error(String(err));
    }
  };
  /** A case whose verdict is taken counts towards the cases a verdict needs, unless it said nothing on the rule. */
  const taken = (outcome: unknown) => {
    if (outcome === undefined || (!discarded(outcome) && !unjudged(outcome))) judged++;
  };
  const timeLimitMs = opts.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  const startedAt = performance.now();
  const atOnce = replay ? 1 : (opts.casesAtOnce ?? 1);
  const ahead =
    atOnce > 1
      ? await judgedAhead(fc.sample(arb, { seed, numRuns, examples }), {
          atOnce,
          judge,
          counts: opts.sharedObject ? leftAsItWas : () => true,
          // A batch that does not count is judged again one case at a time: its first sending is not
          // charged, so that the search reaches as far as one case at a time would (one batch over
          // the budget at most).
          notCounted: (logs) => void (spent -= logs.reduce((n, log) => n + log.length, 0)),
          taken,
          withinBudget,
          inTime: () => performance.now() - startedAt < timeLimitMs,
        })
      : [];
  // Every case of the search judged ahead, and each held: fast-check would only draw them again
  // and find them held (a tenth of a property's time, at loopback, went to that).
  if (ahead.length === numRuns && ahead.every((c) => c.outcome === undefined)) return;
  let call = 0;
  const property = fc.asyncProperty(arb, async (value) => {
    // The search's first cases were judged ahead, at once: fast-check draws the same values in the same order.
    const known = call < ahead.length && fc.stringify(ahead[call].value) === fc.stringify(value) ? ahead[call] : undefined;
    call++;
    // Past the budget (one case kept back for the replay), or once a case went unjudged, nothing
    // more is sent: the search ends, or the shrinking keeps the smallest failure so far.
    if (!known && (stopped || !withinBudget(1))) throw new fc.PreconditionFailure(true);
    const err = known ? known.outcome : await judge(value);
    if (!known) taken(err);
    if (err === undefined) return;
    // A case whose scenario did not happen here says nothing: it is discarded, and counted.
    if (discarded(err)) fc.pre(false);
    if (unjudged(err)) {
      stopped ??= err;
      throw new fc.PreconditionFailure(true);
    }
    throw err;
  });
  const details = await fc.check(property, {
    seed,
    numRuns: replay ? 1 : numRuns,
    path: replay,
    examples: examples.map((e): [T] => [e]),
    endOnFailure: false,
    // The cases judged ahead took part of the time; what they found is taken back at once (a few ms).
    interruptAfterTimeLimit: ahead.length ? Math.max(50, timeLimitMs - (performance.now() - startedAt)) : timeLimitMs,
    markInterruptAsFailure: false,
  });
  if (stopped) throw stopped;
  // Failed without a counterexample: fast-check gave up after too many discarded cases.
  if (!details.failed || !details.counterexample) {
    if (details.numRuns < Math.min(MIN_RUNS, asked)) {
      const cut = details.interrupted
        ? spent + 2 * costliest > budget()
          ? `: stopped before the next case would pass the property's budget of ${budget()} requests for the cases a verdict needs (${spent} sent, the costliest case took ${costliest})`
          : `: stopped at the property's time limit of ${opts.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS} ms`
        : "";
      throw new NotExercised(
        `only ${details.numRuns} of the ${asked} generated case(s) ran, fewer than the ${Math.min(MIN_RUNS, asked)} a verdict needs${cut}${details.numSkips ? `; ${details.numSkips} generated case(s) discarded as not applicable here` : ""}`,
      );
    }
    return;
  }

  const [value] = details.counterexample as [T];
  const shrunkLog: Exchange[] = [];
  let confirmed: CheckFailure | undefined;
  try {
    await run(value, shrunkLog);
  } catch (err) {
    if (err instanceof NetworkError) throw err;
    // Anything but a failure of the rule (a pass, a discarded case, an unmet precondition) leaves the original failure unconfirmed.
    if (err instanceof CheckFailure) confirmed = err;
  }
  const original = details.errorInstance;
  const cause = confirmed ?? (original instanceof CheckFailure ? original : new CheckFailure(String((original as Error)?.message ?? original)));
  const failure = new CheckFailure(`${cause.message} (for ${fc.stringify(value).replace(/\s*\n\s*/g, "; ")})`, {
    expected: cause.expected,
    got: cause.got,
    exchange: cause.exchange ?? shrunkLog.at(-1),
    reason: cause.reason,
  });
  failure.property = {
    seed,
    path: details.counterexamplePath ?? "",
    runs: details.numRuns,
    counterexample: fc.stringify(value),
    setupExchanges: setup,
    shrunkExchanges: shrunkLog,
    // A forbidden write seen applied is a fact its replay, on the object already changed, cannot contradict.
    reproducible: confirmed || cause.stateChange ? "reproducible" : "intermittent",
  };
  throw failure;
}

/** Cases at once on one object count while none failed (a discarded case says nothing) and none of their writes was taken (PropertyOptions.sharedObject). */
const leftAsItWas = (outcomes: unknown[], logs: Exchange[][]) =>
  outcomes.every((o) => o === undefined || discarded(o)) && !logs.some((log) => log.some((e) => tookWrite(e.method, e.status ?? 0)));

interface Ahead<T> {
  atOnce: number;
  judge: (value: T, log: Exchange[]) => Promise<unknown>;
  /** Whether a batch's outcomes count; one that does not is left, with the rest, to the search one case at a time. */
  counts: (outcomes: unknown[], logs: Exchange[][]) => boolean;
  notCounted: (logs: Exchange[][]) => void;
  /** Told of each case whose outcome is taken, as it is taken. */
  taken: (outcome: unknown) => void;
  withinBudget: (cases: number) => boolean;
  inTime: () => boolean;
}

/**
 * The search's first cases, `atOnce` at a time, in fast-check's order: until one fails or goes
 * unjudged (the cases beside it are sent but not taken), a batch does not count, the budget would
 * be passed, or the time is up.
 */
async function judgedAhead<T>(
  values: T[],
  { atOnce, judge, counts, notCounted, taken, withinBudget, inTime }: Ahead<T>,
): Promise<{ value: T; outcome: unknown }[]> {
  const out: { value: T; outcome: unknown }[] = [];
  while (out.length < values.length && inTime()) {
    let size = Math.min(atOnce, values.length - out.length);
    while (size > 0 && !withinBudget(size)) size--;
    if (!size) break;
    const batch = values.slice(out.length, out.length + size);
    const logs = batch.map((): Exchange[] => []);
    const outcomes = await Promise.all(batch.map((value, i) => judge(value, logs[i])));
    if (!counts(outcomes, logs)) {
      notCounted(logs);
      break;
    }
    const end = outcomes.findIndex((o) => o !== undefined && !discarded(o));
    for (const [i, value] of batch.slice(0, end < 0 ? size : end + 1).entries()) {
      taken(outcomes[i]);
      out.push({ value, outcome: outcomes[i] });
    }
    if (end >= 0) break;
  }
  return out;
}

/** The curl lines that reproduce a property's shrunk case on their own: the check's setup writes, then the case's requests. */
export function reproduction(p: { setupExchanges?: Exchange[]; shrunkExchanges: Exchange[] }): string | undefined {
  const lines = [...(p.setupExchanges ?? []), ...p.shrunkExchanges].map((e) => e.curl);
  return lines.length ? lines.join("\n") : undefined;
}
