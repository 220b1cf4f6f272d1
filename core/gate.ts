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
  strict: boolean;
  baseline?: Baseline;
}

/** What the baseline did to this run, as report.json records it. */
export interface BaselineOutcome {
  file?: string;
  /** Failures the baseline accepts. */
  known: string[];
  /** Entries whose check now passes: the baseline can shrink (a failure under --strict). */
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
  return {
    file,
    known: results.filter((r) => isFailing(r) && listed.has(r.id)).map((r) => r.id),
    fixed: results.filter((r) => r.status === "passed" && listed.has(r.id)).map((r) => r.id),
    new: results.filter((r) => isFailing(r) && !listed.has(r.id)).map((r) => r.id),
    unmatched: baseline.knownFailures.filter((e) => !results.some((r) => r.id === e.id)).map((e) => e.id),
  };
}

/** The exit code of a run: the runner's rule over the failures the baseline does not accept; under --strict a fixed entry fails too. */
export function gateExitCode(results: CheckResult[], gate: GateOptions): 0 | 1 {
  if (!gate.baseline) return exitCodeFor(results, gate.strict);
  const listed = new Set(gate.baseline.knownFailures.map((e) => e.id));
  const judged = results.filter((r) => !(isFailing(r) && listed.has(r.id)));
  if (exitCodeFor(judged, gate.strict) === 1) return 1;
  return gate.strict && baselineOutcome(results, gate.baseline).fixed.length > 0 ? 1 : 0;
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

/** A baseline that accepts every failure of a run; the reason starts as the failure's own message. */
export function baselineFrom(results: CheckResult[]): Baseline {
  return { knownFailures: results.filter(isFailing).map((r) => ({ id: r.id, reason: `${r.status} at ${r.level} ${r.spec}: ${r.message.split("\n")[0]}` })) };
}
