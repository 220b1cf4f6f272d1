import fc from "fast-check";
import type { Api } from "./api.js";
import type { CheckContext } from "./context.js";
import type { Exchange } from "./http.js";
import { NetworkError } from "./http.js";
import { Blocked, CheckFailure, NotExercised, NotVerifiable, Skip } from "./outcome.js";

export interface PropertyOptions {
  /** Fewer trials for properties whose trial is expensive; never more than --runs. */
  maxRuns?: number;
  /** Bound on the whole search, shrinking included. */
  timeLimitMs?: number;
  /**
   * Requests the search may send before it stops drawing new cases (the trial under way ends).
   * Against a remote server every request costs a round trip; a failure found within the budget
   * is still shrunk, whatever that costs (bounded by timeLimitMs).
   */
  maxRequests?: number;
}

const DEFAULT_TIME_LIMIT_MS = 60_000;
/** Fewer completed runs than this (or than asked, if fewer were asked) is not a property that held: it was not exercised. */
const MIN_RUNS = 10;
const DEFAULT_REQUEST_BUDGET = 150;

/** Each property draws from its own stream, fixed by the run's seed and the check's id. */
export function propertySeed(runSeed: number, checkId: string): number {
  let h = runSeed | 0;
  for (let i = 0; i < checkId.length; i++) h = (Math.imul(h ^ checkId.charCodeAt(i), 0x5bd1e995) + 0x6b43a9b5) | 0;
  return h;
}

/**
 * Runs `trial` on values drawn from `arb`, each trial with its own exchange log. On a failure
 * fast-check shrinks it (bounded in time); the shrunk case is then run once more to confirm it
 * still breaks the rule and to record its exact requests, which the report prints as curl lines.
 * A network error is not a counterexample: it ends the property as errored; neither is a trial's
 * precondition that the server failed (blocked, not verifiable): it ends the property so. A
 * property that completed fewer than MIN_RUNS runs (cut off by its time limit, or its cases
 * discarded) was not exercised, whatever it saw.
 */
export async function forAll<T>(ctx: CheckContext, arb: fc.Arbitrary<T>, trial: (value: T, api: Api) => Promise<void>, opts: PropertyOptions = {}): Promise<void> {
  const seed = propertySeed(ctx.settings.seed, ctx.checkId);
  const replay = ctx.settings.replay?.checkId === ctx.checkId ? ctx.settings.replay.path : undefined;
  const numRuns = Math.min(ctx.settings.runs, opts.maxRuns ?? Infinity);
  let networkError: NetworkError | undefined;
  let unmet: Blocked | NotVerifiable | undefined;
  const budget = opts.maxRequests ?? DEFAULT_REQUEST_BUDGET;
  let spent = 0;
  let failing = false;
  const run = async (value: T, log: Exchange[]) => {
    try {
      await trial(value, ctx.api.logging(log));
    } catch (err) {
      // A case whose scenario did not happen here says nothing: it is discarded, and counted.
      if (err instanceof Skip || err instanceof NotExercised) fc.pre(false);
      if (err instanceof NetworkError) networkError ??= err;
      if (err instanceof Blocked || err instanceof NotVerifiable) unmet ??= err;
      failing = true;
      throw err;
    } finally {
      spent += log.length;
    }
  };
  const property = fc.asyncProperty(arb, async (value) => {
    // Past the budget the search ends, as at its time limit: no further case is drawn or sent.
    if (spent >= budget && !failing) throw new fc.PreconditionFailure(true);
    return run(value, []);
  });
  const details = await fc.check(property, {
    seed,
    numRuns: replay ? 1 : numRuns,
    path: replay,
    endOnFailure: false,
    interruptAfterTimeLimit: opts.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
    markInterruptAsFailure: false,
  });
  if (networkError) throw networkError;
  if (unmet) throw unmet;
  // Failed without a counterexample: fast-check gave up after too many discarded cases.
  if (!details.failed || !details.counterexample) {
    const asked = replay ? 1 : numRuns;
    // The request budget is the tester's own bound on what it sends: runs that completed within it exercised the rule.
    const budgetSpent = spent >= budget && details.numRuns > 0;
    if (details.numRuns < Math.min(MIN_RUNS, asked) && !budgetSpent)
      throw new NotExercised(`${details.numRuns} of ${asked} run(s) completed${details.interrupted ? ` before the time limit of ${opts.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS} ms` : ""}${details.numSkips ? `, ${details.numSkips} generated case(s) discarded as not applicable here` : ""}`);
    return;
  }

  const [value] = details.counterexample as [T];
  const shrunkLog: Exchange[] = [];
  let confirmed: CheckFailure | undefined;
  try {
    await run(value, shrunkLog);
  } catch (err) {
    confirmed = err instanceof CheckFailure ? err : new CheckFailure(String((err as Error)?.message ?? err));
  }
  const original = details.errorInstance;
  const cause = confirmed ?? (original instanceof CheckFailure ? original : new CheckFailure(String((original as Error)?.message ?? original)));
  const failure = new CheckFailure(`${cause.message} (for ${fc.stringify(value).replace(/\s*\n\s*/g, "; ")})`, { expected: cause.expected, got: cause.got, exchange: cause.exchange ?? shrunkLog.at(-1), reason: cause.reason });
  failure.property = {
    seed,
    path: details.counterexamplePath ?? "",
    runs: details.numRuns,
    counterexample: fc.stringify(value),
    shrunkExchanges: shrunkLog,
    reproducible: confirmed ? "reproducible" : "intermittent",
  };
  throw failure;
}
