import { CheckInterrupted, CheckTimedOut } from "../transport/check-scope.js";
import type { Exchange } from "../transport/http.js";
import { DoorRefused, NetworkError, RateLimited, TransientWrite } from "../transport/http.js";
import { Blocked, type BlockedRoot, CheckFailure, NotExercised, NotVerifiable, Skip } from "../model/outcome.js";
import { reproduction } from "./property.js";
import type { CheckResult, Recurrence, SkipKind, Status } from "./result.js";
import { blockSharedDefects } from "./shared-defects.js";

/**
 * The judge: what a check's end means (passed, failed, blocked under a root, the three kinds of
 * skipped, errored), whether a failure is reproducible or intermittent, and the one label every
 * output shows for a result. How a result counts toward the exit code is the gate's (core/run/gate.ts).
 */

/** How an errored result's message begins when the network lost the server (the runner counts these). */
export const NETWORK = "network: ";
/** How a RateLimited error's message begins. */
export const RATE_LIMITED = "rate limited: ";
/** How a check not run because the server stopped answering begins its message (core/run/runner.ts). */
export const NOT_RUN_LOST = "not run: the server stopped answering";
/** What an interrupted run reports for each check it did not get to: the user's choice, not a verdict. */
export const NOT_RUN_INTERRUPTED = "not run: the run was interrupted";

type Judged = Pick<CheckResult, "status" | "message"> & Partial<CheckResult>;

/**
 * A check's end as a verdict: `thrown` is what its run threw (nothing: it passed); `log`, its
 * exchanges so far. A Blocked naming the check itself as its root is the owner failing on its own
 * endpoint, so it fails.
 */
export function judge(checkId: string, thrown: unknown, log: Exchange[], passed = false): Judged {
  const err = thrown;
  const recent = log.slice(-10);
  if (err instanceof DoorRefused) return { status: "errored", message: err.message, exchanges: recent };
  if (passed) return { status: "passed", message: "" };
  if (err instanceof Skip) return skipped("user", err.message);
  if (err instanceof NotVerifiable) return skipped("not-verifiable", `not verifiable on this server: ${err.message}`);
  if (err instanceof NotExercised) return skipped("not-exercised", `not exercised: ${err.message}`);
  // A schema the generators could not draw from (generators/schema-shape.ts NotGenerated, named, not
  // imported: core does not lean on the generators): the tool's limit, said with the schema, never an error.
  if ((err as Error)?.name === "NotGenerated") return skipped("not-verifiable", `not verifiable on this server: ${(err as Error).message}`);
  if (err instanceof Blocked) {
    const exchange = err.about.exchange;
    if (err.about.rootCheck === checkId)
      return {
        status: "failed",
        message: err.about.detail ?? err.message,
        reason: "precondition",
        expected: "a usable 2xx answer",
        got: exchange?.status === undefined ? undefined : `${exchange.status} ${exchange.responseExcerpt?.slice(0, 160) ?? ""}`.trim(),
        exchange,
        curl: exchange?.curl,
        exchanges: recent,
      };
    return {
      status: "blocked",
      message: err.message,
      root: { ...rootOf(err.about.rootCheck, exchange), ...(err.about.owner ? { owner: err.about.owner } : {}) },
      blockedBy: err.rootCause,
      exchange,
      curl: exchange?.curl,
      exchanges: recent,
    };
  }
  if (err instanceof CheckFailure) {
    const exchange = err.exchange ?? log.at(-1);
    // A property's curl lines are its shrunk case's whole sequence, setup included: they alone reproduce it.
    const curl = (err.property && reproduction(err.property)) ?? exchange?.curl;
    return {
      status: "failed",
      message: err.message,
      reason: err.reason,
      expected: err.expected,
      got: err.got,
      exchange,
      curl,
      exchanges: recent,
      property: err.property,
    };
  }
  if (err instanceof CheckTimedOut) return { status: "errored", message: err.message, exchanges: recent };
  if (err instanceof CheckInterrupted) return { ...skipped("user", err.message), exchanges: recent };
  if (err instanceof TransientWrite) return { ...skipped("not-verifiable", `not verifiable on this run: ${err.message}`), exchanges: recent };
  if (err instanceof RateLimited) return { status: "errored", message: err.message, exchange: err.exchange, exchanges: recent };
  if (err instanceof NetworkError) return { status: "errored", message: `${NETWORK}${err.message}`, exchange: err.exchange, exchanges: recent };
  return { status: "errored", message: `tester error: ${(err as Error)?.stack ?? String(err)}`, exchanges: recent };
}

const skipped = (skipKind: SkipKind, message: string): Judged => ({ status: "skipped", message, skipKind });

/** A root as data, from the check it names and the exchange that shows the cause. */
export function rootOf(check: string, exchange?: Exchange): BlockedRoot {
  return { check, ...(exchange ? { exchange: { method: exchange.method, url: exchange.url, status: exchange.status } } : {}) };
}

/**
 * A failure run again on the undisturbed server: `again` holds the statuses of the re-runs.
 * Only a re-run that passed contradicts the failure: one that was blocked, skipped or errored never
 * reached the scenario (its setup failed, the object it needed was gone), so it says nothing either
 * way. Reproducible when no re-run passed; intermittent otherwise, with how many of the runs that
 * got there failed (the gate fails an intermittent MUST only when it failed more than once:
 * core/run/gate.ts).
 */
export function withRecurrence(first: CheckResult, again: Status[]): CheckResult {
  if (again.length === 0) return first;
  const failedRuns = 1 + again.filter((s) => s === "failed").length;
  const passedRuns = again.filter((s) => s === "passed").length;
  if (passedRuns === 0) return { ...first, recurrence: "reproducible", failedRuns, runs: failedRuns };
  const runs = failedRuns + passedRuns;
  return {
    ...first,
    recurrence: "intermittent",
    failedRuns,
    runs,
    message: `${first.message} (intermittent: failed ${failedRuns} of ${runs} runs)`,
  };
}

/** A property that confirmed its shrunk case itself (core/run/property.ts) says whether it came back. */
export function propertyRecurrence(first: CheckResult): CheckResult | undefined {
  const recurrence: Recurrence | undefined = first.property?.reproducible;
  if (recurrence === "intermittent")
    return { ...first, recurrence, failedRuns: 1, runs: 2, message: `${first.message} (intermittent: the shrunk case passed when run again)` };
  if (recurrence === "reproducible") return { ...first, recurrence, failedRuns: 2, runs: 2 };
  return undefined;
}

/** An intermittent failure that failed only once: shown as intermittent, failing nothing (README, Verdicts). */
export const isLoneIntermittent = (r: Pick<CheckResult, "status" | "recurrence" | "failedRuns">) =>
  r.status === "failed" && r.recurrence === "intermittent" && (r.failedRuns ?? 1) < 2;

/**
 * The run's results settled: one defect reads as one root (core/run/shared-defects.ts), and a root
 * that passed never blocks. A check still blocked under a root that passed (its precondition
 * broke where the owner's own requests did not: a page the owner never read, a fixture's
 * discovery) is not blocked by that root: the first such check fails on the exchange (reason
 * `precondition`), the others that met the same exchange are blocked under it.
 */
export function settle(results: CheckResult[]): CheckResult[] {
  const shared = ownedDiscoveries(blockSharedDefects(results));
  const passed = new Set(shared.filter((r) => r.status === "passed").map((r) => r.id));
  const firstOn = new Map<string, CheckResult>();
  return shared.map((r) => {
    if (r.status !== "blocked" || !r.root || !passed.has(r.root.check)) return r;
    const at = r.root.exchange;
    const key = at ? `${at.method} ${at.url} ${at.status}` : `${r.root.check} ${r.blockedBy}`;
    const first = firstOn.get(key);
    if (first) return { ...r, root: { check: first.id, exchange: at }, blockedBy: `${first.id}: ${describeExchange(at)} (its owner ${r.root.check} passed)` };
    const failed: CheckResult = {
      ...r,
      status: "failed",
      reason: "precondition",
      root: undefined,
      blockedBy: undefined,
      message: `${r.message.replace(/^blocked by /, "")} (its owner ${r.root.check} passed: this answer is the request's defect, not the route's)`,
      expected: "a usable 2xx answer",
      got: at?.status === undefined ? undefined : String(at.status),
    };
    firstOn.set(key, failed);
    return failed;
  });
}

/**
 * A discovery root whose list's owner check failed: the owner shows the defect on requests of its
 * own, so the checks that needed the discovery are blocked under it, one root. An owner that passed
 * leaves the discovery its own root (core/api/preconditions.ts discoveryRoot).
 */
function ownedDiscoveries(results: CheckResult[]): CheckResult[] {
  const failed = new Set(results.filter((r) => r.status === "failed").map((r) => r.id));
  return results.map((r) => {
    const owner = r.status === "blocked" ? r.root?.owner : undefined;
    if (!owner || !failed.has(owner.check)) return r;
    return { ...r, root: { check: owner.check, exchange: r.root!.exchange }, blockedBy: owner.cause, message: `blocked by ${owner.cause}` };
  });
}

const describeExchange = (x?: BlockedRoot["exchange"]) => (x ? `${x.method} ${x.url} answered ${x.status ?? "nothing"}` : "its precondition");

/**
 * The one label of a result, the same in every output (console, JSON, JUnit, HTML, CTRF, GitHub,
 * replay, merge, baseline, compare): a failure that did not come back is "intermittent"; a skip
 * says which kind.
 */
export type Label = "passed" | "failed" | "intermittent" | "blocked" | "skipped" | "not verifiable" | "not exercised" | "errored";

export function label(r: Pick<CheckResult, "status" | "recurrence" | "skipKind">): Label {
  if (r.status === "failed") return r.recurrence === "intermittent" ? "intermittent" : "failed";
  if (r.status === "skipped") return r.skipKind === "not-verifiable" ? "not verifiable" : r.skipKind === "not-exercised" ? "not exercised" : "skipped";
  return r.status;
}

/** How the run is judged, as far as the words shown depend on it: --strict, and the checks a --baseline accepts. */
export interface Judging {
  strict: boolean;
  known?: ReadonlySet<string>;
}

/**
 * The word a result is shown with wherever a verdict is shown beside it: the judge's label, except
 * that what the run does not fail on is not called failed or blocked: a SHOULD check failed or
 * blocked outside --strict is a "SHOULD finding" (core/run/gate.ts verdict: a finding), a failure or
 * blocked check the baseline accepts is "known". So "failed" and "blocked" count exactly what JUnit
 * and CTRF call failed; console, HTML, JUnit, CTRF, JSON and the exit code agree (README, Verdicts).
 */
export type ShownLabel = Label | "SHOULD finding" | "known";

export function shownLabel(r: Pick<CheckResult, "id" | "status" | "recurrence" | "skipKind" | "level">, judging: Judging = { strict: false }): ShownLabel {
  const word = label(r);
  if (word !== "failed" && word !== "blocked") return word;
  if (judging.known?.has(r.id)) return "known";
  return r.level !== "MUST" && !judging.strict ? "SHOULD finding" : word;
}

/**
 * The run in numbers, by the word each result is shown with (shownLabel): failed counts only what
 * fails the run; SHOULD findings, known and intermittent failures apart. skippedBy splits the skips:
 * the user's choice, not verifiable on this server (an E14 endpoint), not exercised (the scenario
 * did not happen). mustRules: a MUST check states one rule of the spec; the rule counts as verified
 * when its check ran and passed, out of the MUST checks of the run.
 */
export function summarise(results: CheckResult[], judging: Judging = { strict: false }) {
  const count = (l: ShownLabel) => results.filter((r) => shownLabel(r, judging) === l).length;
  const skipped = (k: SkipKind) => results.filter((r) => r.status === "skipped" && (r.skipKind ?? "user") === k).length;
  const must = results.filter((r) => r.level === "MUST");
  return {
    total: results.length,
    passed: count("passed"),
    failed: count("failed"),
    findings: count("SHOULD finding"),
    known: count("known"),
    intermittent: count("intermittent"),
    blocked: count("blocked"),
    skipped: results.filter((r) => r.status === "skipped").length,
    errored: count("errored"),
    skippedBy: { user: skipped("user"), notVerifiable: skipped("not-verifiable"), notExercised: skipped("not-exercised") },
    mustRules: { verified: must.filter((r) => r.status === "passed").length, total: must.length },
    requests: results.reduce((n, r) => n + (r.requests ?? 0), 0),
  };
}

/** "verified 51 of 175 MUST rules (29 %)": printed and reported beside every verdict, so that a green run says how much it checked. */
export function verifiedLine(m: { verified: number; total: number }): string {
  return `verified ${m.verified} of ${m.total} MUST rules (${verifiedPercent(m)} %)`;
}

export const verifiedPercent = (m: { verified: number; total: number }) => (m.total ? Math.floor((m.verified / m.total) * 1000) / 10 : 100);

/** Blocked checks grouped under their root (the check and the cause), most blocking first: one root failure, N blocked. */
export function rootCauses(results: CheckResult[]): { rootCause: string; root: BlockedRoot; blocked: string[] }[] {
  const groups = new Map<string, { rootCause: string; root: BlockedRoot; blocked: string[] }>();
  for (const r of results) {
    if (r.status !== "blocked" || !r.root) continue;
    const key = `${r.root.check} ${r.blockedBy}`;
    const group = groups.get(key) ?? { rootCause: r.blockedBy ?? r.root.check, root: r.root, blocked: [] };
    group.blocked.push(r.id);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.blocked.length - a.blocked.length);
}
