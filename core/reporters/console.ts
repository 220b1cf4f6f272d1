import type { Check } from "../check.js";
import { type GateOptions, knownLabel, knownReason, verdict } from "../gate.js";
import type { CheckResult } from "../runner.js";
import { failureDetails, type Report } from "./report.js";

const useColour = () => Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const paint = (code: string, s: string) => (useColour() ? `\x1b[${code}m${s}\x1b[0m` : s);

const MARK: Record<CheckResult["status"], [string, string]> = {
  passed: ["32", "PASS"],
  failed: ["31", "FAIL"],
  blocked: ["31", "BLKD"],
  skipped: ["33", "SKIP"],
  errored: ["35", "ERR "],
};

export interface ConsoleOptions {
  /** On a TTY: one progress line rewritten in place (`[83/159] upsert.slug.trimmed`) instead of a line per check. */
  progress?: (line: string) => void;
  /** No line per check and no failure details: the summary, one line per failure, the reports line. */
  quiet?: boolean;
  /** Every skipped check by name instead of one example per reason. */
  verbose?: boolean;
  gate: GateOptions;
}

/** A line per check as it finishes (skips grouped at the end), then a summary, then every failure in full. */
export class ConsoleReporter {
  private done = 0;
  private total = 0;
  constructor(
    private readonly out: (line: string) => void,
    private readonly options: ConsoleOptions,
  ) {}

  start(seed: number, baseUrl: string, count: number): void {
    this.total = count;
    if (!this.options.quiet) this.out(`conformance: ${count} checks against ${baseUrl}, seed ${seed} (replay with --seed ${seed})`);
  }

  starting(check: Check): void {
    this.options.progress?.(`[${this.done + 1}/${this.total}] ${check.id}`);
  }

  result(r: CheckResult): void {
    this.done++;
    if (this.options.quiet) return;
    // A skip says only what the user chose; the summary groups them by reason.
    if (r.status === "skipped" && !this.options.verbose) return;
    // On a TTY the progress line stands for the passes; what needs reading stays on screen.
    if (this.options.progress && r.status === "passed") return;
    this.options.progress?.("");
    const [code, word] = MARK[r.status];
    const known = knownReason(r, this.options.gate);
    const level = verdict(r, this.options.gate) === "finding" ? paint("33", "SHOULD") : r.level.padEnd(6);
    const why = r.status !== "passed" ? `  ${r.message.split("\n")[0]}` : "";
    this.out(`${known ? paint("33", "KNOWN") : paint(code, word)} ${level} ${r.id}  [${r.spec}]  ${r.durationMs} ms${why}${known ? `  ${knownLabel(known)}` : ""}`);
  }

  /** `notRun`: a replay whose check did not run says so instead of a verdict. */
  finish(report: Report, exitCode: number, notRun?: string): void {
    this.options.progress?.("");
    const { quiet, verbose, gate } = this.options;
    const s = report.summary;
    if (!quiet) this.out("");
    this.out(summaryLine(report));
    if (s.skipped && !quiet) this.out(`  skipped: ${s.skippedBy.user} by the run's setup, ${s.skippedBy.notVerifiable} not verifiable on this server, ${s.skippedBy.notExercised} not exercised`);
    if (report.interrupted) this.out("interrupted: the checks not run are listed as skipped (not run); cleanup ran.");
    if (!quiet) for (const line of skipLines(report.results, Boolean(verbose))) this.out(line);
    for (const l of new Set(report.leftovers)) this.out(paint("31", `left on the server: ${l}`));
    for (const { rootCause, blocked } of report.rootCauses) {
      const known = blocked.filter((id) => verdict(report.results.find((r) => r.id === id)!, gate) === "known");
      this.out(paint("31", `  ${String(blocked.length).padStart(3)} blocked by ${rootCause}: ${blocked.join(", ")}${known.length ? ` (${known.length} KNOWN in the baseline)` : ""}`));
    }
    for (const line of baselineLines(report)) this.out(line);
    // A blocked check is told once, under its root cause above; failures and errors in full.
    const bad = report.results.filter((r) => r.status === "failed" || r.status === "errored");
    for (const r of bad) {
      const known = knownReason(r, gate);
      if (quiet) {
        this.out(`${known ? "KNOWN" : MARK[r.status][1]} ${r.level} ${r.id}  ${r.message.split("\n")[0]}${known ? `  ${knownLabel(known)}` : ""}`);
        continue;
      }
      const v = verdict(r, gate);
      this.out("");
      this.out(paint(r.status === "errored" ? "35" : v === "finding" || v === "known" ? "33" : "31", `── ${r.id}${v === "finding" ? " (SHOULD finding)" : known ? ` ${knownLabel(known)}` : ""}`));
      this.out(failureDetails(r));
    }
    if (!quiet) this.out("");
    // An interrupted run is no verdict: its last line must not read as one; nor a replay that did not run its check.
    if (report.interrupted) this.out(paint("33", "conformance: interrupted"));
    else if (notRun) this.out(paint("33", `conformance: ${notRun}`));
    else this.out(exitCode === 0 ? paint("32", "conformance: passed") : paint("31", "conformance: FAILED"));
  }
}

/** What a --baseline made of the run: printed with or without the console reporter. */
export function baselineLines(report: Report): string[] {
  const b = report.gate?.baseline;
  if (!b) return [];
  return [
    `baseline: ${b.known.length} known failure(s) accepted, ${b.new.length} new, ${b.fixed.length} fixed`,
    ...b.known.map((id) => paint("33", `KNOWN: ${id}: ${b.reasons[id]}`)),
    ...b.fixed.map((id) => paint("32", `fixed: ${id} passes now: remove it from the baseline (conformance baseline update)${report.gate?.failOnFixed ? "; fails the run under --fail-on-fixed" : ""}`)),
    ...b.new.map((id) => paint("31", `new failure: ${id}`)),
    ...(b.unmatched.length ? [`baseline: ${b.unmatched.length} entr${b.unmatched.length === 1 ? "y names" : "ies name"} no check of this run (not selected, removed or mistyped): ${b.unmatched.join(", ")}`] : []),
  ];
}

export function summaryLine(report: Report): string {
  const s = report.summary;
  const left = new Set(report.leftovers).size;
  return `${s.total} checks: ${s.passed} passed, ${s.failed} failed, ${s.blocked} blocked, ${s.skipped} skipped, ${s.errored} errored in ${report.durationMs} ms, ${s.requests} requests (seed ${report.seed}); verified ${s.mustRules.verified}/${s.mustRules.total} MUST rules${left ? `; LEFT ON THE SERVER: ${left} thing(s) (${leftoverKinds(report.leftovers)})` : ""}`;
}

/** The kinds of what a run left, counted: "3 WORKBOOK, 1 FOLDER, 2 not confirmed as the run's". */
function leftoverKinds(leftovers: string[]): string {
  const kinds = new Map<string, number>();
  for (const l of new Set(leftovers)) {
    const kind = l.startsWith("not removed: not confirmed") ? "not confirmed as the run's" : (/^(WORKBOOK|FOLDER|REPORT)\b/.exec(l)?.[1] ?? (/^(\/\S+)/.exec(l)?.[1] ?? "other").replace(/\/\d+$/, ""));
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return [...kinds].map(([k, n]) => `${n} ${k}`).join(", ");
}

/** Skips grouped by reason, most frequent first: a count and one example, or (verbose) every id. */
export function skipLines(results: CheckResult[], verbose: boolean): string[] {
  const byReason = new Map<string, string[]>();
  for (const r of results) if (r.status === "skipped") byReason.set(r.message, [...(byReason.get(r.message) ?? []), r.id]);
  const lines: string[] = [];
  for (const [reason, ids] of [...byReason].sort((a, b) => b[1].length - a[1].length)) {
    if (verbose) lines.push(`  ${String(ids.length).padStart(3)} skipped: ${reason}`, ...ids.map((id) => `        ${id}`));
    else lines.push(`  ${String(ids.length).padStart(3)} skipped: ${reason} (e.g. ${ids[0]}${ids.length > 1 ? `; --verbose lists all` : ""})`);
  }
  return lines;
}

const SPEC_COLUMN_MAX = 36;

/**
 * The catalogue as aligned columns: id, level, spec rule, title. A rule citation longer than its
 * column gets a line of its own and the title goes below it, in the title column.
 */
export function catalogueLines(checks: Check[], variantsOf: (c: Check) => string[] = () => []): string[] {
  const idWidth = Math.max(...checks.map((c) => c.id.length));
  const specWidth = Math.min(SPEC_COLUMN_MAX, Math.max(...checks.map((c) => c.spec.length)));
  const indent = " ".repeat(idWidth + 2 + 6 + 2 + specWidth + 2);
  return checks.flatMap((c) => {
    const head = `${c.id.padEnd(idWidth)}  ${c.level.padEnd(6)}  `;
    const variants = variantsOf(c);
    const lines = c.spec.length <= specWidth ? [`${head}${c.spec.padEnd(specWidth)}  ${c.title}`] : [`${head}${c.spec}`, `${indent}${c.title}`];
    return variants.length ? [...lines, `${indent}variants: ${variants.join(", ")}`] : lines;
  });
}

/** The variants whose spec sections the check cites (`E2` in "E2; Pagination styles", never in "E21"). */
export function variantsCovering(c: Pick<Check, "spec">, variants: { name: string; sections: string[] }[]): string[] {
  return variants.filter((v) => v.sections.some((s) => new RegExp(`\\b${s}\\b`).test(c.spec))).map((v) => v.name);
}
