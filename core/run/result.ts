import type { ClassCoverage } from "./class-tally.js";
import type { Check } from "../check/check.js";
import type { Exchange, TransientCounts } from "../model/exchange.js";
import type { BlockedRoot, PropertyFailure } from "../model/outcome.js";
import type { ServedRead } from "../served/read.js";

/**
 * The model of a run's results, apart from the runner that produces them, so that the judge
 * (core/run/verdict.ts), the gate, the reporters and the commands read them without importing the runner.
 *
 * passed / failed: a verdict. blocked: not judged because the server failed a precondition the
 * spec makes its duty (counts as a failure at the check's level). skipped: not judged because of
 * what the user chose or did not configure, or because the scenario never happened (`skipKind`).
 * errored: the tester or the network broke.
 */
export type Status = "passed" | "failed" | "blocked" | "skipped" | "errored";

/** Why a check was skipped: the user's choice, an endpoint whose shape the spec does not show, or a scenario that did not happen. */
export type SkipKind = "user" | "not-verifiable" | "not-exercised";

/** Whether a failure came back when the check was run again on the undisturbed server. */
export type Recurrence = "reproducible" | "intermittent";

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
  /** For failures: which assertion failed, a key of the registry (core/model/reasons.ts). */
  reason?: string;
  expected?: string;
  got?: string;
  /** The exchange that shows the failure, and a curl line that replays it. */
  exchange?: Exchange;
  curl?: string;
  exchanges?: Exchange[];
  property?: PropertyFailure;
  recurrence?: Recurrence;
  /** For a failure run again: how many of its `runs` failed (an intermittent one that failed more than once fails the gate). */
  failedRuns?: number;
  runs?: number;
  /** For blocked: the root, as data. */
  root?: BlockedRoot;
  /** For blocked: the root as a sentence (`<check id>: <what the server did>`), shared by every check it blocks. */
  blockedBy?: string;
  skipKind?: SkipKind;
  /** The judge's label (core/run/verdict.ts), written into report.json. */
  label?: string;
  /** Requests the check sent, re-runs of a failure included (discovery and cleanup excluded). */
  requests?: number;
}

export interface RunOutcome {
  results: CheckResult[];
  leftovers: string[];
  interrupted: boolean;
  durationMs: number;
  startedAt: string;
  /** The run's read of the served document, when a check made one (core/run/document-sections.ts reuses it). */
  servedDocument?: Promise<ServedRead>;
  /** The 429 and 503 answers the run waited out (core/transport/http.ts): shown once, never a check's verdict. */
  transients?: TransientCounts;
  /** Which classes of each input (core/api/input-domain.ts) the run sent and judged. */
  inputClasses?: ClassCoverage;
}

/** The fields a result takes from its check. */
export const resultBase = (check: Pick<Check, "id" | "group" | "title" | "spec" | "level" | "kind">) => ({
  id: check.id,
  group: check.group,
  title: check.title,
  spec: check.spec,
  level: check.level,
  kind: check.kind,
});
