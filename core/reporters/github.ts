/**
 * On GitHub Actions: an `::error` annotation per failure and a `::warning` per SHOULD finding
 * (or known failure of the baseline), and a Markdown summary appended to $GITHUB_STEP_SUMMARY.
 * Workflow commands are escaped as the Actions runner reads them back.
 */
import { appendFileSync } from "node:fs";
import { type GateOptions, verdict } from "../gate.js";
import type { Report } from "./report.js";

/** The message part of a workflow command. */
export const escapeData = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
/** A property value (title=...): also `:` and `,`, which end it. */
export const escapeProperty = (s: string) => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

export function annotations(report: Report, gate: GateOptions): string[] {
  const lines: string[] = [];
  for (const r of report.results) {
    const v = verdict(r, gate);
    if (v === "ok" || v === "skipped") continue;
    const command = v === "failure" || v === "error" ? "error" : "warning";
    const label = v === "finding" ? "SHOULD finding" : v === "known" ? "known failure (baseline)" : r.status;
    const detail = [r.message.split("\n")[0], r.expected !== undefined ? `expected: ${r.expected}` : "", r.got !== undefined ? `got: ${r.got}` : "", r.blockedBy ? `blocked by: ${r.blockedBy}` : "", r.curl ? `reproduce: ${r.curl}` : ""].filter(Boolean).join("\n");
    lines.push(`::${command} title=${escapeProperty(`${r.id} [${r.level} ${r.spec}] ${label}`)}::${escapeData(detail)}`);
  }
  return lines;
}

export function stepSummary(report: Report, reports: string[]): string {
  const s = report.summary;
  const cell = (t: string) => t.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const lines = [
    `## Conformance: ${report.gate?.exitCode === 0 ? "passed" : "FAILED"}`,
    "",
    `${report.target.baseUrl}, seed ${report.seed}${report.gate?.strict ? ", --strict" : ""}`,
    "",
    "| total | passed | failed | blocked | skipped | errored |",
    "|---|---|---|---|---|---|",
    `| ${s.total} | ${s.passed} | ${s.failed} | ${s.blocked} | ${s.skipped} | ${s.errored} |`,
    "",
  ];
  const bad = report.results.filter((r) => r.status === "failed" || r.status === "blocked" || r.status === "errored");
  if (bad.length) {
    lines.push("| check | level | rule | status | message |", "|---|---|---|---|---|");
    for (const r of bad) lines.push(`| \`${r.id}\` | ${r.level} | ${cell(r.spec)} | ${r.status} | ${cell(r.message.split("\n")[0]).slice(0, 300)} |`);
    lines.push("");
  }
  const b = report.gate?.baseline;
  if (b) lines.push(`Baseline: ${b.known.length} known, ${b.new.length} new, ${b.fixed.length} fixed${b.fixed.length ? ` (${b.fixed.join(", ")})` : ""}.`, "");
  if (reports.length) lines.push(`Reports: ${reports.join(", ")}`, "");
  return lines.join("\n") + "\n";
}

/** Writes both when GITHUB_ACTIONS=true; does nothing elsewhere. */
export function publishToGitHub(report: Report, gate: GateOptions, reports: string[], out: (line: string) => void, env = process.env): void {
  if (env.GITHUB_ACTIONS !== "true") return;
  for (const line of annotations(report, gate)) out(line);
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, stepSummary(report, reports));
}
