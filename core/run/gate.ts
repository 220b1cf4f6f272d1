/**
 * The gate: how each result counts toward the exit code, given --strict and a --baseline of known
 * failures. Every reporter (console, JUnit, HTML, GitHub) asks here, so that the CI test tab, the
 * annotations and the exit code tell the same story.
 */
import { readFileSync } from "node:fs";
import type { CheckResult } from "./result.js";
import { UsageError } from "../api/settings.js";
import { isLoneIntermittent, type Judging, label } from "./verdict.js";

/** One known failure: the check id, and why it is accepted for now. */
export interface BaselineEntry {
  id: string;
  reason: string;
}

export interface Baseline {
  knownFailures: BaselineEntry[];
}

/**
 * ok: passed. finding: a SHOULD failure (or blocked SHOULD check) outside --strict, or an
 * intermittent failure that failed only once (README, Verdicts): shown, not failing.
 * failure: fails the gate. known: a failure the baseline accepts. skipped: not judged. error: the tester broke.
 */
export type Verdict = "ok" | "finding" | "failure" | "known" | "skipped" | "error";

export interface GateOptions {
  /** SHOULD failures (and blocked SHOULD checks) fail the run too. */
  strict: boolean;
  baseline?: Baseline;
  /** "Baselines only shrink": a baseline entry whose check passes now fails the run (--fail-on-fixed). */
  failOnFixed?: boolean;
}

/** What the baseline did to this run, as report.json records it. */
export interface BaselineOutcome {
  file?: string;
  /** Failures the baseline accepts. */
  known: string[];
  /** The reason the user wrote for each known failure, by check id. */
  reasons: Record<string, string>;
  /** Entries whose check now passes: the baseline can shrink (a failure under --fail-on-fixed). */
  fixed: string[];
  /** Failures the baseline does not name. */
  new: string[];
  /** Entries that name no check of this run: not selected, removed from the catalogue, or mistyped. */
  unmatched: string[];
}

/** What the words shown depend on: --strict and the baseline's entries (core/run/verdict.ts shownLabel). */
export const judgingOf = (gate: GateOptions): Judging => ({ strict: gate.strict, known: new Set(gate.baseline?.knownFailures.map((e) => e.id)) });

/** A result that fails at its level: failed (an intermittent one only when it failed more than once), blocked, errored. */
export const isFailing = (r: Pick<CheckResult, "status" | "recurrence" | "failedRuns">) =>
  (r.status === "failed" && !isLoneIntermittent(r)) || r.status === "blocked" || r.status === "errored";

export function verdict(r: CheckResult, gate: GateOptions): Verdict {
  if (r.status === "passed") return "ok";
  if (r.status === "skipped") return "skipped";
  if (gate.baseline?.knownFailures.some((e) => e.id === r.id)) return "known";
  if (r.status === "errored") return "error";
  if (isLoneIntermittent(r)) return "finding";
  return r.level === "MUST" || gate.strict ? "failure" : "finding";
}

/**
 * The label a result is shown with wherever it is shown: the judge's label (core/run/verdict.ts), and
 * how it counts when it does not fail the run: `SHOULD finding` (a failed SHOULD check),
 * `blocked (SHOULD finding)`, `intermittent (failed 1 of 3 runs: not failing)`,
 * `KNOWN (baseline: <reason>)`, `blocked, KNOWN (baseline: <reason>)`.
 */
export function shownAs(r: CheckResult, gate: GateOptions): string {
  const v = verdict(r, gate);
  const word = label(r);
  if (v === "known") return word === "failed" ? knownLabel(knownReason(r, gate)!) : `${word}, ${knownLabel(knownReason(r, gate)!)}`;
  if (v === "finding" && isLoneIntermittent(r)) return `${word} (failed ${r.failedRuns ?? 1} of ${r.runs ?? 1} runs: not failing)`;
  if (v === "finding") return word === "failed" ? "SHOULD finding" : `${word} (SHOULD finding)`;
  return word;
}

export function baselineOutcome(results: CheckResult[], baseline: Baseline, file?: string): BaselineOutcome {
  const listed = new Set(baseline.knownFailures.map((e) => e.id));
  const known = results.filter((r) => isFailing(r) && listed.has(r.id)).map((r) => r.id);
  return {
    file,
    known,
    reasons: Object.fromEntries(known.map((id) => [id, baseline.knownFailures.find((e) => e.id === id)!.reason])),
    fixed: results.filter((r) => r.status === "passed" && listed.has(r.id)).map((r) => r.id),
    new: results.filter((r) => isFailing(r) && !listed.has(r.id)).map((r) => r.id),
    unmatched: baseline.knownFailures.filter((e) => !results.some((r) => r.id === e.id)).map((e) => e.id),
  };
}

/** The reason the user wrote for accepting this failure, when the baseline accepts it. */
export function knownReason(r: CheckResult, gate: GateOptions): string | undefined {
  return verdict(r, gate) === "known" ? gate.baseline!.knownFailures.find((e) => e.id === r.id)!.reason : undefined;
}

/** How a known failure is labelled wherever it is shown: `KNOWN (baseline: <the user's reason>)`. */
export const knownLabel = (reason: string) => `KNOWN (baseline: ${reason})`;

/** 0: nothing fails the gate (no MUST failure or blocked MUST check, nor SHOULD under --strict, nothing errored); 1 otherwise. */
function failsGate(results: CheckResult[], gate: GateOptions): boolean {
  return results.some((r) => ["failure", "error"].includes(verdict(r, gate)));
}

/**
 * The exit code of a run, decided here alone: 130 interrupted; 2 a replay whose check did not run
 * (it proves nothing); 1 a result the gate fails (a baseline's known failures aside; under
 * --fail-on-fixed a fixed entry too), coverage below --min-coverage, verified rules below --min-verified,
 * a request refused at the door (core/run/door.ts), or something left on the server; 0 otherwise.
 */
export function gateExitCode(
  results: CheckResult[],
  gate: GateOptions,
  run: { interrupted?: boolean; replayNotRun?: string; coverageBelow?: string; verifiedBelow?: string; refused?: string[]; leftBehind?: string } = {},
): 0 | 1 | 2 | 130 {
  if (run.interrupted) return 130;
  if (run.replayNotRun) return 2;
  // A request refused at the door is a bug of the tool's, and a tenant left changed its broken
  // promise: the run says so with exit 1 (JUnit and CTRF count the leftovers' testcase failed).
  if (failsGate(results, gate) || run.coverageBelow || run.verifiedBelow || run.refused?.length || run.leftBehind) return 1;
  return gate.baseline && gate.failOnFixed && baselineOutcome(results, gate.baseline).fixed.length > 0 ? 1 : 0;
}

/**
 * A replayed check that did not run (skipped: writes not allowed, a token missing...): what to
 * say instead of a verdict; undefined when it ran.
 */
export function notRun(results: CheckResult[]): string | undefined {
  const skipped = results.filter((r) => r.status === "skipped");
  if (!results.length || skipped.length < results.length) return undefined;
  return `not run: ${skipped[0].message}`;
}

/** Reads and checks a baseline file; a bad one is a usage error (one line, exit 2). */
export function readBaseline(file: string): Baseline {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new UsageError(`cannot read baseline ${file}: ${(e as Error).message.split("\n")[0]}`);
  }
  const entries = (parsed as Baseline | null)?.knownFailures;
  if (!Array.isArray(entries)) throw new UsageError(`baseline ${file}: expected {"knownFailures": [{"id", "reason"}, ...]}`);
  entries.forEach((e, i) => {
    if (typeof e?.id !== "string" || !e.id) throw new UsageError(`baseline ${file}: knownFailures[${i}] has no id`);
    if (typeof e.reason !== "string" || !e.reason.trim())
      throw new UsageError(`baseline ${file}: knownFailures[${i}] (${e.id}) has no reason: say why the failure is accepted`);
  });
  return { knownFailures: entries.map((e) => ({ id: e.id, reason: e.reason })) };
}

/** What `baseline update` puts where the user is to say why a new failure is accepted. */
export const PLACEHOLDER_REASON = "TODO: say why this failure is accepted";

/**
 * The baseline brought up to a run: entries keep the reason the user wrote; an entry whose check
 * passes now is removed (the baseline shrinks); an entry this run did not judge (not selected,
 * skipped) stays; each new failure is added with the placeholder reason and what failed.
 */
export function updateBaseline(baseline: Baseline, results: CheckResult[]): { baseline: Baseline; kept: string[]; removed: string[]; added: string[] } {
  const outcome = baselineOutcome(results, baseline);
  const removed = new Set(outcome.fixed);
  const entries = baseline.knownFailures.filter((e) => !removed.has(e.id));
  const added = results
    .filter((r) => outcome.new.includes(r.id))
    .map((r) => ({ id: r.id, reason: `${PLACEHOLDER_REASON} (${r.status} at ${r.level} ${r.spec}: ${r.message.split("\n")[0]})` }));
  return { baseline: { knownFailures: [...entries, ...added] }, kept: entries.map((e) => e.id), removed: [...removed], added: added.map((e) => e.id) };
}

/** A baseline that accepts every failure of a run; the reason starts as the failure's own message. */
export function baselineFrom(results: CheckResult[]): Baseline {
  return { knownFailures: results.filter(isFailing).map((r) => ({ id: r.id, reason: `${r.status} at ${r.level} ${r.spec}: ${r.message.split("\n")[0]}` })) };
}
