import type { Check } from "../check.js";
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

/** A line per check as it finishes, then a summary, then every failure in full. */
export class ConsoleReporter {
  constructor(private readonly out: (line: string) => void = (l) => process.stdout.write(l + "\n")) {}

  start(seed: number, baseUrl: string, count: number): void {
    this.out(`conformance: ${count} checks against ${baseUrl}, seed ${seed} (replay with --seed ${seed})`);
  }

  result(r: CheckResult): void {
    const [code, word] = MARK[r.status];
    const level = r.status === "failed" && r.level === "SHOULD" ? paint("33", "SHOULD") : r.level.padEnd(6);
    const why = r.status !== "passed" ? `  ${r.message.split("\n")[0]}` : "";
    this.out(`${paint(code, word)} ${level} ${r.id}  [${r.spec}]  ${r.durationMs} ms${why}`);
  }

  finish(report: Report, exitCode: number): void {
    const s = report.summary;
    this.out("");
    this.out(`${s.total} checks: ${s.passed} passed, ${s.failed} failed, ${s.blocked} blocked, ${s.skipped} skipped, ${s.errored} errored in ${report.durationMs} ms, ${s.requests} requests (seed ${report.seed})`);
    if (report.interrupted) this.out("interrupted: the remaining checks did not run; cleanup ran.");
    const skipReasons = new Map<string, number>();
    for (const r of report.results) if (r.status === "skipped") skipReasons.set(r.message, (skipReasons.get(r.message) ?? 0) + 1);
    for (const [reason, n] of [...skipReasons].sort((a, b) => b[1] - a[1])) this.out(`  ${String(n).padStart(3)} skipped: ${reason}`);
    for (const l of report.leftovers) this.out(paint("31", `left on the server: ${l}`));
    const bad = report.results.filter((r) => r.status === "failed" || r.status === "blocked" || r.status === "errored");
    for (const r of bad) {
      this.out("");
      this.out(paint(r.status === "errored" ? "35" : "31", "── " + r.id));
      this.out(failureDetails(r));
    }
    this.out("");
    this.out(exitCode === 0 ? paint("32", "conformance: passed") : paint("31", "conformance: FAILED"));
  }
}

export function catalogueLine(c: Check): string {
  return `${c.id.padEnd(52)} ${c.level.padEnd(6)} ${c.spec.padEnd(22)} ${c.title}`;
}
