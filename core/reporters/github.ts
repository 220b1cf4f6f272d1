/**
 * On GitHub Actions: annotations (`::error` for what fails the run, `::warning` for SHOULD
 * findings and known failures of the baseline), and a Markdown summary appended to
 * $GITHUB_STEP_SUMMARY. GitHub shows at most 10 annotations of each kind per step, so they come
 * most important first (MUST failures, then root causes with the checks they block, then the
 * rest), at most MAX_ANNOTATIONS, then one line saying how many more the report holds.
 * Workflow commands are escaped as the Actions runner reads them back.
 */
import { appendFileSync } from "node:fs";
import { verifiedLine } from "../run/verdict.js";
import { type GateOptions, knownLabel, knownReason, shownAs, verdict } from "../run/gate.js";
import type { CheckResult } from "../run/result.js";
import { label } from "../run/verdict.js";
import type { Report } from "../run/report.js";
import { findingsHeading, findingsNote, findingsTitle, reportSections } from "./sections.js";
import { leftoversSaid } from "../ledger/leftovers.js";

export const MAX_ANNOTATIONS = 10;

/** The message part of a workflow command. */
export const escapeData = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
/** A property value (title=...): also `:` and `,`, which end it. */
export const escapeProperty = (s: string) => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

/** Lower comes first: what fails the run on its own, then the root causes, then what does not fail it. */
function rank(r: CheckResult, gate: GateOptions): number {
  const v = verdict(r, gate);
  if (v === "failure" && r.status === "failed") return r.level === "MUST" ? 0 : 1;
  if (v === "error") return 2;
  return v === "finding" ? 4 : 5;
}

export function annotations(report: Report, gate: GateOptions): string[] {
  const shown = report.results.filter((r) => !["ok", "skipped"].includes(verdict(r, gate)));
  // A blocked check is told under its root cause: one annotation for the cause, naming what it blocks.
  const blocked = new Set(report.rootCauses.flatMap((c) => c.blocked));
  // The root check (it owns the endpoint and failed on the same answer) carries what it blocks.
  const blocks = new Map(report.rootCauses.map((c) => [c.root.check, c.blocked]));
  const items: { rank: number; line: string }[] = [];
  for (const r of shown) {
    if (blocked.has(r.id)) continue;
    const v = verdict(r, gate);
    const command = v === "failure" || v === "error" ? "error" : "warning";
    const label = shownAs(r, gate);
    const ids = blocks.get(r.id);
    const detail = [
      r.message.split("\n")[0],
      r.expected !== undefined ? `expected: ${r.expected}` : "",
      r.got !== undefined ? `got: ${r.got}` : "",
      r.curl ? `reproduce: ${r.curl}` : "",
      ids ? `root cause: blocks ${ids.length}: ${ids.join(", ")}` : "",
    ]
      .filter(Boolean)
      .join("\n");
    items.push({
      rank: rank(r, gate),
      line: `::${command} title=${escapeProperty(`${r.id} [${r.level} ${r.spec}] ${label}${ids ? `, blocks ${ids.length}` : ""}`)}::${escapeData(detail)}`,
    });
  }
  for (const { rootCause, root, blocked: ids } of report.rootCauses) {
    const members = shown.filter((r) => ids.includes(r.id));
    if (!members.length || shown.some((r) => r.id === root.check)) continue;
    const failing = members.filter((r) => verdict(r, gate) === "failure");
    const best = Math.min(...members.map((r) => rank(r, gate)));
    const command = failing.length ? "error" : "warning";
    const title = `root cause: ${ids.length} check${ids.length === 1 ? "" : "s"} blocked by ${root.check}`;
    items.push({
      rank: failing.length ? 1.5 : best,
      line: `::${command} title=${escapeProperty(title)}::${escapeData(`blocked by ${rootCause}\nblocks: ${ids.join(", ")}`)}`,
    });
  }
  const ordered = items.sort((a, b) => a.rank - b.rank).map((i) => i.line);
  if (ordered.length <= MAX_ANNOTATIONS) return ordered;
  const more = ordered.length - MAX_ANNOTATIONS;
  return [
    ...ordered.slice(0, MAX_ANNOTATIONS),
    `::notice title=${escapeProperty(`${more} more`)}::${escapeData(`${more} more failure(s), root cause(s) and finding(s) are in the report (step summary, junit.xml, report.html)`)}`,
  ];
}

/** The step summary, in the order of every report (core/reporters/sections.ts): failures whole first, the skips folded last. */
export function stepSummary(report: Report, reports: string[], gate: GateOptions): string {
  const s = report.summary;
  const parts = reportSections(report, gate);
  const cell = (t: string) => t.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const fence = (t: string) => ["```", t.replace(/```/g, "ʼʼʼ"), "```"];
  const lines = [
    `## Conformance: ${report.gate?.exitCode === 0 ? "passed" : "FAILED"}`,
    "",
    `${report.target.baseUrl}, seed ${report.seed}${report.gate?.strict ? ", --strict" : ""}`,
    "",
  ];
  const told = (heading: string, rs: CheckResult[]) => {
    if (!rs.length) return;
    lines.push(`### ${heading}: ${rs.length}`, "");
    for (const r of rs) {
      lines.push(`**\`${r.id}\`** ${r.level} ${r.spec}: ${r.title}`, "", `${label(r)}: ${r.message.split("\n")[0]}`, "");
      if (r.expected !== undefined) lines.push(`- expected: ${r.expected}`);
      if (r.got !== undefined) lines.push(`- got: ${r.got}`);
      if (r.expected !== undefined || r.got !== undefined) lines.push("");
      if (r.curl) lines.push(...fence(r.curl), "");
    }
  };
  told("Failures", parts.failures);
  told("Errored: no verdict", parts.errors);
  if (parts.rootCauses.length)
    lines.push(
      `### Blocked: ${parts.rootCauses.length} root cause(s)`,
      "",
      ...parts.rootCauses.map(
        ({ rootCause, blocked }) =>
          `- ${cell(rootCause)}: blocks ${blocked.length}${findingsNote(blocked, parts.blockedFindings)}: ${blocked.map((id) => `\`${id}\``).join(", ")}`,
      ),
      "",
    );
  if (parts.findings.length || parts.known.length) {
    lines.push(
      `### ${findingsTitle(parts)} and known failures: ${findingsHeading(parts, parts.known.length)}`,
      "",
      "| check | rule | verdict | message |",
      "|---|---|---|---|",
    );
    for (const r of parts.findings)
      lines.push(`| \`${r.id}\` | ${r.level} ${cell(r.spec)} | ${cell(shownAs(r, gate))} | ${cell(r.message.split("\n")[0]).slice(0, 300)} |`);
    for (const r of parts.known)
      lines.push(`| \`${r.id}\` | ${r.level} ${cell(r.spec)} | ${cell(knownLabel(knownReason(r, gate)!))} | ${cell(r.message.split("\n")[0]).slice(0, 300)} |`);
    lines.push("");
  }
  if (parts.leftovers.length)
    lines.push(
      `### Left on the server: ${leftoversSaid(parts.leftovers.map((l) => l.what))}`,
      "",
      ...parts.leftovers.map(({ what, times }) => `- ${what}${times > 1 ? ` (${times} times)` : ""}`),
      "",
    );
  lines.push(
    "| total | passed | failed | SHOULD findings | intermittent | known | blocked | skipped | errored |",
    "|---|---|---|---|---|---|---|---|---|",
    `| ${s.total} | ${s.passed} | ${s.failed} | ${s.findings ?? 0} | ${s.intermittent} | ${s.known ?? 0} | ${s.blocked} | ${s.skipped} | ${s.errored} |`,
    "",
    verifiedLine(s.mustRules),
    "",
  );
  const b = report.gate?.baseline;
  if (b) lines.push(`Baseline: ${b.known.length} known, ${b.new.length} new, ${b.fixed.length} fixed${b.fixed.length ? ` (${b.fixed.join(", ")})` : ""}.`, "");
  if (parts.skips.length) {
    lines.push(`<details><summary>Skipped: ${s.skipped}, by reason</summary>`, "");
    for (const g of parts.skips) lines.push(`- ${g.ids.length}: ${cell(g.reason)} (${g.ids.map((id) => `\`${id}\``).join(", ")})`);
    lines.push("", "</details>", "");
  }
  if (reports.length) lines.push(`Reports: ${reports.join(", ")}`, "");
  return lines.join("\n") + "\n";
}

/** Writes both when GITHUB_ACTIONS=true; does nothing elsewhere. */
export function publishToGitHub(report: Report, gate: GateOptions, reports: string[], out: (line: string) => void, env = process.env): void {
  if (env.GITHUB_ACTIONS !== "true") return;
  for (const line of annotations(report, gate)) out(line);
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, stepSummary(report, reports, gate));
}
