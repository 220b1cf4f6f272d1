import { type GateOptions, verdict } from "../core/run/gate.js";
import type { CheckResult, RunOutcome } from "../core/model/result.js";
import { NOT_RUN_INTERRUPTED } from "../core/run/verdict.js";

/**
 * --fail-fast: the first result that fails the run (a failure, a blocked or errored check, as the
 * gate judges it: a known failure of the baseline or a SHOULD finding does not) starts no further
 * check. What runs is finished and cleaned up. The checks not started are reported as not run,
 * saying why; the run is not interrupted (exit 1, not 130).
 */
export class FailFast {
  private first?: string;
  constructor(private readonly gate: GateOptions) {}

  observe(result: CheckResult): void {
    const v = verdict(result, this.gate);
    if (!this.first && (v === "failure" || v === "error")) this.first = result.id;
  }

  readonly shouldStop = (): boolean => this.first !== undefined;

  /** The outcome as the user asked for it: the checks not run say --fail-fast stopped them. */
  settle(outcome: RunOutcome, interruptedByUser: boolean): RunOutcome {
    if (!this.first || interruptedByUser) return outcome;
    const why = `not run: --fail-fast stopped the run after ${this.first} failed`;
    return { ...outcome, interrupted: false, results: outcome.results.map((r) => (r.message === NOT_RUN_INTERRUPTED ? { ...r, message: why } : r)) };
  }
}
