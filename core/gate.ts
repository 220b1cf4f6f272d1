/**
 * The gate: how each result counts toward the exit code, given --strict and a --baseline of known
 * failures. Every reporter (console, JUnit, HTML, GitHub) asks here, so that the CI test tab, the
 * annotations and the exit code tell the same story.
 */
import { readFileSync } from "node:fs";
import type { CheckResult } from "./runner.js";
import { exitCodeFor } from "./runner.js";
import { UsageError } from "./settings.js";

/** One known failure: the check id, and why it is accepted for now. */
export interface BaselineEntry {
  id: string;
  reason: string;
}

export interface Baseline {
  knownFailures: BaselineEntry[];
}

/**
 * ok: passed. finding: a SHOULD failure (or blocked SHOULD check) outside --strict: shown, not failing.
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

export const isFailing = (r: Pick<CheckResult, "status">) => r.status === "failed" || r.status === "blocked" || r.status === "errored";

export function verdict(r: CheckResult, gate: GateOptions): Verdict {
  if (r.status === "passed") return "ok";
  if (r.status === "skipped") return "skipped";
  if (gate.baseline?.knownFailures.some((e) => e.id === r.id)) return "known";
  if (r.status === "errored") return "error";
  return r.level === "MUST" || gate.strict ? "failure" : "finding";
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

/** The exit code of a run: the runner's rule over the failures the baseline does not accept; under --fail-on-fixed a fixed entry fails too. */
export function gateExitCode(results: CheckResult[], gate: GateOptions): 0 | 1 {
  if (!gate.baseline) return exitCodeFor(results, gate.strict);
  const listed = new Set(gate.baseline.knownFailures.map((e) => e.id));
  const judged = results.filter((r) => !(isFailing(r) && listed.has(r.id)));
  if (exitCodeFor(judged, gate.strict) === 1) return 1;
  return gate.failOnFixed && baselineOutcome(results, gate.baseline).fixed.length > 0 ? 1 : 0;
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
    if (typeof e.reason !== "string" || !e.reason.trim()) throw new UsageError(`baseline ${file}: knownFailures[${i}] (${e.id}) has no reason: say why the failure is accepted`);
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
  const added = results.filter((r) => outcome.new.includes(r.id)).map((r) => ({ id: r.id, reason: `${PLACEHOLDER_REASON} (${r.status} at ${r.level} ${r.spec}: ${r.message.split("\n")[0]})` }));
  return { baseline: { knownFailures: [...entries, ...added] }, kept: entries.map((e) => e.id), removed: [...removed], added: added.map((e) => e.id) };
}

/** A baseline that accepts every failure of a run; the reason starts as the failure's own message. */
export function baselineFrom(results: CheckResult[]): Baseline {
  return { knownFailures: results.filter(isFailing).map((r) => ({ id: r.id, reason: `${r.status} at ${r.level} ${r.spec}: ${r.message.split("\n")[0]}` })) };
}
