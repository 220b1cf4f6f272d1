/**
 * JUnit XML that validates against the strict Jenkins xunit schema (junit-10.xsd) and that every
 * CI test tab reads the way the exit code does: a testsuite per group, a testcase per check.
 * Written by hand: junit-report-builder puts `skipped` on <testsuites> (the schema rejects it) and
 * cannot give <skipped> a message.
 */
import { writeFileSync } from "node:fs";
import { type GateOptions, shownAs, verdict } from "../run/gate.js";
import type { CheckResult } from "../run/result.js";
import { failureDetails, type Report } from "../run/report.js";
import { verifiedLine } from "../run/verdict.js";
import { failsTheRun, leftoversSaid } from "../ledger/leftovers.js";

export function writeJUnit(report: Report, file: string, gate: GateOptions): void {
  writeFileSync(file, junitXml(report, gate));
}

export function junitXml(report: Report, gate: GateOptions): string {
  const suites = [...new Set(report.results.map((r) => r.group))].map((g) =>
    suiteXml(
      g,
      report.results.filter((r) => r.group === g),
      report,
      gate,
    ),
  );
  if (report.leftovers.length) suites.push(leftoversXml(report));
  const all = suites.reduce((t, s) => ({ tests: t.tests + s.tests, failures: t.failures + s.failures, errors: t.errors + s.errors, time: t.time + s.time }), {
    tests: 0,
    failures: 0,
    errors: 0,
    time: 0,
  });
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites ${attrs({ name: report.tool.name, tests: all.tests, failures: all.failures, errors: all.errors, time: seconds(report.durationMs) })}>`,
    ...suites.map((s) => s.xml),
    `</testsuites>`,
    "",
  ].join("\n");
}

function suiteXml(group: string, results: CheckResult[], report: Report, gate: GateOptions) {
  const cases = results.map((r) => caseXml(r, gate));
  const count = (v: string) => cases.filter((c) => c.verdict === v).length;
  const ms = results.reduce((t, r) => t + r.durationMs, 0);
  const head = attrs({
    name: group,
    tests: results.length,
    failures: count("failure"),
    errors: count("error"),
    skipped: count("skipped") + count("known"),
    time: seconds(ms),
    timestamp: report.startedAt.replace(/\.\d+Z$/, "Z"),
  });
  const properties = [
    ["seed", report.seed],
    ["baseUrl", report.target.baseUrl],
    ["strict", gate.strict],
    ["verified", verifiedLine(report.summary.mustRules)],
  ].map(([name, value]) => `      <property ${attrs({ name, value })}/>`);
  return {
    tests: results.length,
    failures: count("failure"),
    errors: count("error"),
    time: ms,
    xml: [`  <testsuite ${head}>`, "    <properties>", ...properties, "    </properties>", ...cases.map((c) => c.xml), "  </testsuite>"].join("\n"),
  };
}

function caseXml(r: CheckResult, gate: GateOptions) {
  const v = verdict(r, gate);
  const head = `    <testcase ${attrs({ classname: `conformance.${r.group}`, name: `${r.id} [${r.level} ${r.spec}] ${r.title}`, time: seconds(r.durationMs) })}`;
  const why = r.status === "blocked" ? `blocked by ${r.blockedBy ?? r.message}` : r.message.split("\n")[0];
  const body: string[] = [];
  if (v === "failure")
    body.push(element("failure", { type: r.status === "blocked" ? "blocked" : r.level, message: `${r.level} ${r.spec}: ${why}` }, failureDetails(r)));
  else if (v === "error") body.push(element("error", { type: "errored", message: why }, failureDetails(r)));
  else if (v === "skipped") body.push(element("skipped", { message: r.message }));
  else if (v === "known") body.push(element("skipped", { message: `${shownAs(r, gate)}: ${why}` }), element("system-out", {}, failureDetails(r)));
  else if (v === "finding") body.push(element("system-out", {}, `${shownAs(r, gate)}\n${failureDetails(r)}`));
  return { verdict: v, xml: body.length ? `${head}>\n${body.map((b) => `      ${b}`).join("\n")}\n    </testcase>` : `${head}/>` };
}

/**
 * What the run left on the server: a testcase of its own, failed where the run fails for it (a CI
 * dashboard shows the broken promise); objects not confirmed as the run's alone fail nothing, and
 * are told in `<system-out>`.
 */
function leftoversXml(report: Report) {
  const unique = [...new Set(report.leftovers)];
  const failures = unique.some(failsTheRun) ? 1 : 0;
  const head = attrs({
    name: "leftovers",
    tests: 1,
    failures,
    errors: 0,
    skipped: 0,
    time: seconds(0),
    timestamp: report.startedAt.replace(/\.\d+Z$/, "Z"),
  });
  const said = `left on the server: ${leftoversSaid(unique)}`;
  const body = failures
    ? element("failure", { type: "leftovers", message: said }, unique.join("\n"))
    : element("system-out", {}, `${said}\n${unique.join("\n")}`);
  const testcase = `    <testcase ${attrs({ classname: "conformance.leftovers", name: "the run leaves nothing on the server", time: seconds(0) })}>\n      ${body}\n    </testcase>`;
  return { tests: 1, failures, errors: 0, time: 0, xml: [`  <testsuite ${head}>`, testcase, "  </testsuite>"].join("\n") };
}

function element(name: string, attributes: Record<string, unknown>, text?: string): string {
  const a = attrs(attributes);
  const open = a ? `<${name} ${a}` : `<${name}`;
  return text === undefined ? `${open}/>` : `${open}>${escapeXml(text)}</${name}>`;
}

function attrs(a: Record<string, unknown>): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}="${escapeXml(String(v)).replace(/"/g, "&quot;").replace(/\n/g, "&#10;").replace(/\t/g, "&#9;")}"`)
    .join(" ");
}

/** Escapes markup and drops the characters XML 1.0 cannot carry at all (a server may answer with any byte). */
export function escapeXml(s: string): string {
  return s
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/** The schema's SUREFIRE_TIME: plain decimal seconds, never an exponent. */
const seconds = (ms: number) => (ms / 1000).toFixed(3);
