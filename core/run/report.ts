import type { ClassCoverage } from "./class-tally.js";
import type { DriftReport } from "../served/drift.js";
import type { BaselineOutcome } from "./gate.js";
import type { CoverageReport } from "../served/operation-coverage.js";
import type { CheckResult, RunOutcome } from "./result.js";
import type { TransientCounts } from "../transport/http.js";
import type { OptIn } from "../api/settings.js";
import { type Judging, label, rootCauses, shownLabel, summarise } from "./verdict.js";

/** What a run selected from the catalogue: its --group and --check filters and how many checks they chose, before --shard. */
export interface Selection {
  groups?: string[];
  checks?: string[];
  /** --exclude-check. */
  excluded?: string[];
  selected: number;
  /** Sharded with --reference: each shard ran against a server of its own, so parts were cut by cost alone (core/run/shard.ts). */
  separateServers?: boolean;
}

export interface Report {
  tool: { name: string; version: string };
  /** reference: the run was against the bundled reference server (--reference, with these --fault), which a re-run starts again. */
  target: { baseUrl: string; reference?: { faults?: string[] } };
  seed: number;
  runs: number;
  writes: boolean;
  /** The opt-ins beyond --allow-writes the run had (`--allow-<opt-in>`): a re-run of one check needs them again. */
  optIns?: OptIn[];
  /** The selection the run (or every shard of it) started from: shards of one run share it. */
  selection?: Selection;
  /** `--shard i/n`: which part of the selection this report holds. A merged report has none. */
  shard?: { index: number; count: number };
  startedAt: string;
  durationMs: number;
  interrupted: boolean;
  summary: ReturnType<typeof summarise>;
  /** Blocked checks grouped under the root cause they share (a check id and what the server did). */
  rootCauses: ReturnType<typeof rootCauses>;
  /** What the run created or changed and could not remove or restore. */
  leftovers: string[];
  /** The 429 and 503 answers waited out and retried: told once here, never a check's verdict. */
  transients?: TransientCounts;
  results: CheckResult[];
  /** Per operation of the served document: the statuses and checks the run's traffic reached it with; E14 operations served beyond it. */
  operations?: CoverageReport;
  /** Per input of E1-E14: which of its classes the run sent and which checks judged them (core/run/class-tally.ts). */
  inputClasses?: ClassCoverage;
  /** The served document against the bundled contract's E1–E13 (SHOULD findings). */
  drift?: DriftReport;
  /** How the run was judged: --strict, the exit code, and what a --baseline accepted, fixed or found new. */
  gate?: {
    strict: boolean;
    failOnFixed?: boolean;
    exitCode: number;
    baseline?: BaselineOutcome;
    /** A replay whose check did not run: what to say instead of a verdict (exit 2). */
    notRun?: string;
    /** --min-coverage not met: why (exit 1). */
    coverageBelow?: string;
    /** Requests refused at the door (core/run/door.ts), `<caller>: <method> <path>: <why>`: a bug of the tool's, exit 1. */
    refused?: string[];
    /** --min-verified not met: why (exit 1). */
    verifiedBelow?: string;
    /** What the run left on the server (core/ledger/leftovers.ts, each in `leftovers`): the tester's broken promise, exit 1. */
    leftBehind?: string;
  };
}

export function buildReport(
  outcome: RunOutcome,
  meta: {
    name: string;
    version: string;
    baseUrl: string;
    seed: number;
    runs: number;
    writes: boolean;
    optIns?: OptIn[];
    selection?: Selection;
    shard?: Report["shard"];
  },
): Report {
  return {
    tool: { name: meta.name, version: meta.version },
    target: { baseUrl: meta.baseUrl },
    seed: meta.seed,
    runs: meta.runs,
    writes: meta.writes,
    ...(meta.optIns?.length ? { optIns: meta.optIns } : {}),
    ...(meta.selection ? { selection: meta.selection } : {}),
    ...(meta.shard ? { shard: meta.shard } : {}),
    startedAt: outcome.startedAt,
    durationMs: outcome.durationMs,
    interrupted: outcome.interrupted,
    summary: summarise(outcome.results),
    rootCauses: rootCauses(outcome.results),
    leftovers: outcome.leftovers,
    ...(outcome.transients ? { transients: outcome.transients } : {}),
    results: labelled(outcome.results),
    ...(outcome.inputClasses ? { inputClasses: outcome.inputClasses } : {}),
  };
}

/** Each result with its label (core/run/verdict.ts), so that a reader of report.json sees the word every other output shows. */
export const labelled = (results: CheckResult[], judging?: Judging) => results.map((r) => ({ ...r, label: shownLabel(r, judging) }));

/** A check that races requests against each other: one re-run proves little, --repeat runs the race side by side. */
const races = (r: Pick<CheckResult, "title">) => /\b(race|races|racing|concurrent)\b/i.test(r.title);

/**
 * The command that re-runs one check alone, with the run's seed (a property draws the same cases,
 * its shrunk case among them), the run's permissions (without the opt-in it needs, the check is
 * skipped and the re-run exits 0) and --strict (without it, a SHOULD failure is a finding that fails
 * nothing), and, for a race, --repeat so that the race is run again side by side.
 */
export function rerunCommand(report: Pick<Report, "target" | "seed" | "runs" | "writes" | "optIns" | "gate">, r: Pick<CheckResult, "id" | "title">): string {
  // The token and any fixtures come from where the run took them (the config, the environment): never printed.
  const faults = report.target.reference?.faults?.length ? ` --fault ${report.target.reference.faults.join(" ")}` : "";
  const target = report.target.reference ? `--reference${faults}` : `--base-url ${report.target.baseUrl}`;
  // --reference grants every opt-in itself.
  const writes = report.writes && !report.target.reference ? [" --allow-writes", ...(report.optIns ?? []).map((o) => ` --allow-${o}`)].join("") : "";
  const strict = report.gate?.strict ? " --strict" : "";
  const race = races(r) ? " --repeat 5" : "";
  return `conformance ${target} --check ${r.id} --seed ${report.seed} --runs ${report.runs}${writes}${strict}${race}`;
}

/** The full story of one failure, as plain text: console and JUnit print the same. */
export function failureDetails(r: CheckResult): string {
  // The judged word (a SHOULD finding is never "failed" where the run passes), else the judge's.
  const lines = [`${r.level} ${r.spec}: ${r.title}`, `check: ${r.id}`, `${r.label ?? label(r)}: ${r.message}`];
  if (r.expected !== undefined) lines.push(`expected: ${r.expected}`);
  if (r.got !== undefined) lines.push(`got:      ${r.got}`);
  if (r.recurrence) lines.push(`recurrence: ${r.recurrence}`);
  if (r.blockedBy) lines.push(`blocked by: ${r.blockedBy}`);
  if (r.property) {
    const p = r.property;
    lines.push(`property: seed ${p.seed}, path "${p.path}", failed after ${p.runs} run(s)`, `counterexample (shrunk): ${p.counterexample}`);
    if (p.shrunkExchanges.length) lines.push("requests of the shrunk case:", ...p.shrunkExchanges.map((e) => `  ${e.curl}   # -> ${e.status ?? e.error}`));
  }
  if (r.exchange) {
    const e = r.exchange;
    lines.push(`request:  ${e.method} ${e.url}`);
    if (e.requestBody) lines.push(`  body: ${e.requestBody.slice(0, 500)}`);
    lines.push(`response: ${e.status ?? e.error ?? "?"} ${e.responseHeaders?.["content-type"] ?? ""}`);
    if (e.responseExcerpt) lines.push(`  body: ${e.responseExcerpt.slice(0, 800)}`);
  }
  if (r.curl) lines.push(`reproduce: ${r.curl}`);
  return lines.join("\n");
}
