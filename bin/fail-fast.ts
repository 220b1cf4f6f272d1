import { type GateOptions, verdict } from "../core/run/gate.js";
import type { CheckResult, RunOutcome } from "../core/run/result.js";
import { NOT_RUN_INTERRUPTED } from "../core/run/verdict.js";

/**
 * --fail-fast: the first result that fails the run (a failure, a blocked or errored check, as the
 * gate judges it: a known failure of the baseline or a SHOULD finding does not) starts no further
 * check. What runs is finished and cleaned up. The checks not started are reported as not run,
 * saying why; the run is not interrupted (exit 1, not 130).
 */
export class FailFast {
  private readonly failed: string[] = [];
  /** `max`: how many failing results stop the run (--max-failures; --fail-fast is 1). */
  constructor(
    private readonly gate: GateOptions,
    private readonly max = 1,
  ) {}

  observe(result: CheckResult): void {
    const v = verdict(result, this.gate);
    if (this.failed.length < this.max && (v === "failure" || v === "error")) this.failed.push(result.id);
  }

  readonly shouldStop = (): boolean => this.failed.length >= this.max;

  /** The outcome as the user asked for it: the checks not run say --fail-fast (or --max-failures) stopped them. */
  settle(outcome: RunOutcome, interruptedByUser: boolean): RunOutcome {
    if (!this.shouldStop() || interruptedByUser) return outcome;
    const why =
      this.max === 1
        ? `not run: --fail-fast stopped the run after ${this.failed[0]} failed`
        : `not run: --max-failures ${this.max} stopped the run after ${this.failed.join(", ")} failed`;
    return { ...outcome, interrupted: false, results: outcome.results.map((r) => (r.message === NOT_RUN_INTERRUPTED ? { ...r, message: why } : r)) };
  }
}
