import type { Check } from "../check/check.js";
import { CUT_OFF } from "../model/exchange.js";
import { type GateOptions, judgingOf, knownLabel, knownReason, shownAs, verdict } from "../run/gate.js";
import type { CheckResult } from "../run/result.js";
import { NETWORK, NOT_RUN_LOST, type ShownLabel, shownLabel, verifiedLine } from "../run/verdict.js";
import { failureDetails, type Report, rerunCommand } from "../run/report.js";
import { findingsNote, reportSections, skipGroups } from "./sections.js";
import { leftoversSaid } from "../ledger/leftovers.js";

const useColour = () => Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const paint = (code: string, s: string) => (useColour() ? `\x1b[${code}m${s}\x1b[0m` : s);

/** Each label's mark (core/run/verdict.ts shownLabel): the line says what the JSON, JUnit and HTML say. */
const MARK: Record<ShownLabel, [string, string]> = {
  passed: ["32", "PASS"],
  failed: ["31", "FAIL"],
  "SHOULD finding": ["33", "WARN"],
  known: ["33", "KNOWN"],
  intermittent: ["33", "FLKY"],
  blocked: ["31", "BLKD"],
  skipped: ["33", "SKIP"],
  "not verifiable": ["33", "SKIP"],
  "not exercised": ["33", "SKIP"],
  errored: ["35", "ERR "],
};

export interface ConsoleOptions {
  /** On a TTY: one progress line rewritten in place (`[83/258 done] upsert.slug.trimmed (+3 running) 12 s`). Without one: a plain line per finished group, and one every HEARTBEAT_MS of silence. */
  progress?: (line: string) => void;
  /** No line per check and no failure details: the summary, one line per failure, the reports line. */
  quiet?: boolean;
  /** A line per passed check, and every skipped check by name instead of one example per reason. */
  verbose?: boolean;
  gate: GateOptions;
}

/** Without a terminal (CI, a pipe), the longest a log stays silent while checks run. */
export const HEARTBEAT_MS = 5_000;

/** A check that did not run because the server was gone, or lost it on the network: told under one root, not one by one. */
export const lostServer = (r: Pick<CheckResult, "status" | "message">) =>
  r.status === "errored" && (r.message.startsWith(NOT_RUN_LOST) || r.message.startsWith(NETWORK));

/** A line per check that did not pass as it finishes, then the summary and the run in the order of core/reporters/sections.ts. */
export class ConsoleReporter {
  private done = 0;
  private readonly finishedIds = new Set<string>();
  private total = 0;
  private started = 0;
  private lastLine = 0;
  private heartbeat?: NodeJS.Timeout;
  /** The checks running now, in the order they started: the progress line names the oldest. */
  private readonly running = new Set<string>();
  /** Checks left to finish in each group: a group's line is printed when it reaches 0 (no terminal). */
  private readonly groupsLeft = new Map<string, number>();
  /** The label each check's line showed as it finished: the judge may settle it otherwise at the end (a shared defect, a root that passed). */
  private readonly shown = new Map<string, string>();
  constructor(
    private readonly out: (line: string) => void,
    private readonly options: ConsoleOptions,
  ) {}

  start(seed: number, baseUrl: string, checks: number | Pick<Check, "group">[]): void {
    this.total = typeof checks === "number" ? checks : checks.length;
    if (typeof checks !== "number") for (const c of checks) this.groupsLeft.set(c.group, (this.groupsLeft.get(c.group) ?? 0) + 1);
    this.started = this.lastLine = Date.now();
    if (!this.options.quiet) this.say(`conformance: ${this.total} checks against ${baseUrl}, seed ${seed} (replay with --seed ${seed})`);
    // No terminal: a plain line whenever the log has been silent too long, so that CI never looks hung.
    if (!this.options.progress && !this.options.quiet) {
      this.heartbeat = setInterval(() => {
        if (Date.now() - this.lastLine >= HEARTBEAT_MS) this.say(`  ${this.counted()}${this.current() ? `; running ${this.current()}` : ""}`);
      }, 1_000);
      this.heartbeat.unref();
    }
  }

  private readonly elapsed = () => `${Math.round((Date.now() - this.started) / 1000)} s`;
  private readonly counted = () => `${this.done}/${this.total} checks done, ${this.elapsed()}`;
  private current(): string | undefined {
    const [first] = this.running;
    return first && `${first}${this.running.size > 1 ? ` (+${this.running.size - 1} more started)` : ""}`;
  }

  /** Every line goes out here: the progress line is cleared first, so that nothing prints over it. */
  private say(line: string): void {
    this.options.progress?.("");
    this.lastLine = Date.now();
    this.out(line);
  }

  private drawProgress(): void {
    const current = this.current();
    this.options.progress?.([`[${this.done}/${this.total} done]`, current, this.elapsed()].filter(Boolean).join(" "));
  }

  starting(check: Check): void {
    this.running.add(check.id);
    this.drawProgress();
  }

  /** A check finished (in whatever order they finish): counted, and its group's line where it was the group's last. */
  finished(r: Pick<CheckResult, "id" | "group">): void {
    if (this.finishedIds.has(r.id)) return;
    this.finishedIds.add(r.id);
    this.done++;
    this.running.delete(r.id);
    this.groupDone(r.group);
    this.drawProgress();
  }

  /** A check's result, in the catalogue's order: its line where it did not pass (counted by `finished` if it was not yet). */
  result(r: CheckResult): void {
    this.finished(r);
    const word = shownLabel(r, judgingOf(this.options.gate));
    this.shown.set(r.id, word);
    if (this.options.quiet) return;
    // A skip says only what the user chose; the summary groups them by reason.
    if (r.status === "skipped" && !this.options.verbose) {
      this.drawProgress();
      return;
    }
    // The passes are told by the summary (and the progress line on a TTY): what needs reading comes first.
    if (r.status === "passed" && !this.options.verbose) {
      this.drawProgress();
      return;
    }
    // A server that went away is one root: the checks it took with it are counted at the end, not listed.
    if (lostServer(r) && !this.options.verbose) {
      this.drawProgress();
      return;
    }
    const [code, mark] = MARK[word];
    const known = knownReason(r, this.options.gate);
    const level = verdict(r, this.options.gate) === "finding" ? paint("33", "SHOULD") : r.level.padEnd(6);
    const why = r.status !== "passed" ? `  ${r.message.split("\n")[0]}` : "";
    this.say(
      `${known ? paint("33", "KNOWN") : paint(code, mark)} ${level} ${r.id}  [${r.spec}]  ${r.durationMs} ms${why}${known ? `  ${knownLabel(known)}` : ""}`,
    );
    this.drawProgress();
  }

  /** No terminal: a plain line as each group finishes, with the run's count. */
  private groupDone(group: string): void {
    const left = (this.groupsLeft.get(group) ?? 1) - 1;
    this.groupsLeft.set(group, left);
    if (left === 0 && !this.options.progress && !this.options.quiet) this.say(`  ${group} done; ${this.counted()}`);
  }

  /**
   * The summary, then the run told in the order of every report (core/reporters/sections.ts):
   * failures in full, errors, blocked roots, SHOULD findings, known failures, leftovers, skips
   * grouped by reason; the verdict last. `notRun`: a replay whose check did not run says so instead of a verdict.
   */
  finish(report: Report, exitCode: number, notRun?: string): void {
    clearInterval(this.heartbeat);
    this.options.progress?.("");
    const { quiet, verbose, gate } = this.options;
    const s = report.summary;
    const parts = reportSections(report, gate);
    if (!quiet) this.out("");
    this.out(summaryLine(report));
    if (report.interrupted) this.out("interrupted: the checks not run are listed as skipped (not run); cleanup ran.");
    const transient = transientLine(report.transients);
    if (transient) this.out(transient);
    const told = (r: CheckResult, heading: string, colour: string) => {
      if (quiet)
        return this.out(
          `${MARK[shownLabel(r, judgingOf(gate))][1]} ${r.level} ${r.id}  ${r.message.split("\n")[0]}${verdict(r, gate) === "known" ? `  ${knownLabel(knownReason(r, gate)!)}` : ""}`,
        );
      this.out("");
      // The judge's word for it, as every report shows it (core/run/gate.ts shownAs), and what it means here.
      this.out(paint(colour, `── ${r.id} ${shownAs(r, gate)}${heading ? ` ${heading}` : ""}`));
      this.out(failureDetails(r));
      this.out(`re-run alone: ${rerunCommand(report, r)}`);
    };
    for (const r of parts.failures) told(r, r.level === "MUST" ? "" : "(SHOULD, failing under --strict)", "31");
    const lost = parts.errors.filter(lostServer);
    for (const r of parts.errors) if (!lost.includes(r) || verbose) told(r, "(no verdict)", "35");
    if (lost.length && !verbose) this.out(paint("35", lostLine(lost)));
    if (!quiet && (parts.failures.length || parts.errors.length) && (parts.rootCauses.length || parts.findings.length)) this.out("");
    for (const { rootCause, blocked } of parts.rootCauses) {
      const known = blocked.filter((id) => verdict(report.results.find((r) => r.id === id)!, gate) === "known");
      this.out(
        paint(
          "31",
          `  ${String(blocked.length).padStart(3)} blocked by ${rootCause}: ${blocked.join(", ")}${known.length ? ` (${known.length} KNOWN in the baseline)` : ""}${findingsNote(blocked, parts.blockedFindings)}`,
        ),
      );
    }
    for (const r of parts.findings) told(r, "", "33");
    for (const r of parts.known) told(r, "", "33");
    if (!quiet && (parts.findings.length || parts.known.length)) this.out("");
    for (const { what } of parts.leftovers) this.out(paint("31", `left on the server: ${what}`));
    for (const line of baselineLines(report)) this.out(line);
    // The last word on a check is the settled one, the same as every report's.
    for (const r of report.results)
      if (this.shown.has(r.id) && this.shown.get(r.id) !== shownLabel(r, judgingOf(gate)))
        this.out(
          `  ${r.id}: ${this.shown.get(r.id)} as it finished, ${shownAs(r, gate)} once the run was judged${r.blockedBy ? ` (blocked by ${r.blockedBy})` : ""}`,
        );
    if (s.skipped && !quiet) {
      this.out(
        `  skipped: ${s.skippedBy.user} by the run's setup, ${s.skippedBy.notVerifiable} not verifiable on this server, ${s.skippedBy.notExercised} not exercised`,
      );
      for (const line of skipLines(report.results, Boolean(verbose))) this.out(line);
    }
    if (!quiet) this.out("");
    // An interrupted run is no verdict: its last line must not read as one; nor a replay that did not run its check.
    if (report.interrupted) this.out(paint("33", "conformance: interrupted"));
    else if (notRun) this.out(paint("33", `conformance: ${notRun}`));
    else this.out(verdictLine(report, exitCode));
  }
}

/** One root for a server that went away: where it was lost, and how many checks it took with it. */
export function lostLine(lost: CheckResult[]): string {
  const notRun = lost.filter((r) => r.message.startsWith(NOT_RUN_LOST));
  const cause = (notRun[0] ?? lost[0]).message.replace(/^not run: /, "");
  return `── ${cause}: ${lost.length - notRun.length} checks lost it on the network, ${notRun.length} not run (errored, no verdict; --verbose lists them)`;
}

/** What a --baseline made of the run: printed with or without the console reporter. */
export function baselineLines(report: Report): string[] {
  const b = report.gate?.baseline;
  if (!b) return [];
  return [
    `baseline: ${b.known.length} known failure(s) accepted, ${b.new.length} new, ${b.fixed.length} fixed`,
    ...b.known.map((id) => paint("33", `KNOWN: ${id}: ${b.reasons[id]}`)),
    ...b.fixed.map((id) =>
      paint(
        "32",
        `fixed: ${id} passes now: remove it from the baseline (conformance baseline update)${report.gate?.failOnFixed ? "; fails the run under --fail-on-fixed" : ""}`,
      ),
    ),
    ...b.new.map((id) => paint("31", `new failure: ${id}`)),
    ...(b.unmatched.length
      ? [
          `baseline: ${b.unmatched.length} entr${b.unmatched.length === 1 ? "y names" : "ies name"} no check of this run (not selected, removed or mistyped): ${b.unmatched.join(", ")}`,
        ]
      : []),
  ];
}

/** The last word: the verdict, and beside it how much of the spec it rests on. */
export function verdictLine(report: Report, exitCode: number): string {
  const verified = verifiedLine(report.summary.mustRules);
  return exitCode === 0 ? `${paint("32", "conformance: passed")}; ${verified}` : `${paint("31", "conformance: FAILED")}; ${verified}`;
}

/** The run in numbers, in the words of every report: what does not fail the run is never counted as failed. */
export function summaryLine(report: Report): string {
  const s = report.summary;
  const also = [
    s.findings ? `${s.findings} SHOULD finding${s.findings === 1 ? "" : "s"}` : "",
    s.intermittent ? `${s.intermittent} intermittent` : "",
    s.known ? `${s.known} known` : "",
  ].filter(Boolean);
  return `${s.total} checks: ${s.passed} passed, ${s.failed} failed, ${also.map((a) => `${a}, `).join("")}${s.blocked} blocked, ${s.skipped} skipped, ${s.errored} errored in ${report.durationMs} ms, ${s.requests} requests (seed ${report.seed})${report.leftovers.length ? `; LEFT ON THE SERVER: ${leftoversSaid(report.leftovers)}` : ""}`;
}

/** Skips grouped by reason, most frequent first: a count and one example, or (verbose) every id. */
export function skipLines(results: CheckResult[], verbose: boolean): string[] {
  const lines: string[] = [];
  for (const { reason, ids } of skipGroups(results)) {
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

/** The transient answers the run waited out, in one line (none: no line); never part of a check's verdict. */
export function transientLine(t: Report["transients"]): string | undefined {
  const retried = Object.entries(t?.retried ?? {}).filter(([, n]) => n > 0);
  if (!t || (!retried.length && !t.gaveUp && !t.readBack && !t.notSentAgain)) return undefined;
  const parts = retried.map(([status, n]) => (status === CUT_OFF ? `${n} read(s) cut off before an answer, sent again` : `${n} answered ${status}`));
  if (t.readBack) parts.push(`${t.readBack} write(s) read back before a retry`);
  if (t.gaveUp) parts.push(`${t.gaveUp} still transient after the retry budget (errored, no verdict)`);
  if (t.notSentAgain) parts.push(`${t.notSentAgain} write(s) not sent again, as they may have been applied (not verifiable)`);
  return `transient answers waited out and retried: ${parts.join(", ")}`;
}
