/**
 * The Common Test Report Format (CTRF, ctrf.io): one JSON file that dashboards and CI plugins of
 * many tools read alike. Each check is a test whose status follows the gate (core/run/gate.ts), as
 * JUnit's does: a known failure of the baseline and a SHOULD finding outside --strict are "other"
 * (the server's own status kept in rawStatus), so that a CTRF dashboard counts as failed exactly
 * what fails the exit code; what the run left on the server is one more failed test, as in JUnit.
 * The baseline and the rule of each check go in `extra`: CTRF's own
 * `baseline` names a previous report to compare with, not accepted failures.
 */
import { writeFileSync } from "node:fs";
import { type GateOptions, knownReason, shownAs, type Verdict, verdict } from "../run/gate.js";
import type { CheckResult } from "../run/result.js";
import { failureDetails, type Report } from "../run/report.js";
import { failsTheRun, leftoversSaid } from "../ledger/leftovers.js";

export const CTRF_SPEC_VERSION = "0.0.0";
type CtrfStatus = "passed" | "failed" | "skipped" | "pending" | "other";

const STATUS: Record<Verdict, CtrfStatus> = { ok: "passed", failure: "failed", error: "failed", known: "other", finding: "other", skipped: "skipped" };

export function ctrfReport(report: Report, gate: GateOptions) {
  const tests = [...report.results.map((r) => ctrfTest(r, gate, report)), ...leftoversTest(report)];
  const count = (s: CtrfStatus) => tests.filter((t) => t.status === s).length;
  const start = Date.parse(report.startedAt);
  return {
    reportFormat: "CTRF",
    specVersion: CTRF_SPEC_VERSION,
    timestamp: new Date(start + report.durationMs).toISOString(),
    generatedBy: `${report.tool.name} ${report.tool.version}`,
    results: {
      tool: { name: report.tool.name, version: report.tool.version },
      summary: {
        tests: tests.length,
        passed: count("passed"),
        failed: count("failed"),
        skipped: count("skipped"),
        pending: 0,
        other: count("other"),
        flaky: tests.filter((t) => "flaky" in t && t.flaky).length,
        suites: new Set(tests.map((t) => t.suite[0])).size,
        start,
        stop: start + report.durationMs,
        duration: report.durationMs,
        extra: {
          seed: report.seed,
          exitCode: report.gate?.exitCode,
          strict: gate.strict,
          mustRules: report.summary.mustRules,
          findings: report.summary.findings,
          interrupted: report.interrupted,
          ...(report.gate?.baseline ? { baseline: report.gate.baseline } : {}),
        },
      },
      tests,
      environment: { appName: "Analytics Platform Management API", testEnvironment: report.target.baseUrl },
    },
  };
}

/** What the run left on the server, as JUnit tells it: a test listing each thing with how to remove it, failed where the run fails for it, else other. */
function leftoversTest(report: Report) {
  if (!report.leftovers.length) return [];
  const unique = [...new Set(report.leftovers)];
  return [
    {
      name: "the run leaves nothing on the server",
      status: (unique.some(failsTheRun) ? "failed" : "other") as CtrfStatus,
      duration: 0,
      suite: ["leftovers"],
      message: `left on the server: ${leftoversSaid(unique)}`,
      trace: unique.join("\n"),
      labels: { check: "leftovers" },
      extra: { label: "left on the server" },
    },
  ];
}

function ctrfTest(r: CheckResult, gate: GateOptions, report: Report) {
  const v = verdict(r, gate);
  const reason = knownReason(r, gate);
  return {
    name: `${r.id} [${r.level} ${r.spec}] ${r.title}`,
    status: STATUS[v],
    duration: r.durationMs,
    suite: [r.group],
    rawStatus: r.status,
    tags: [r.level, r.kind],
    labels: { check: r.id, level: r.level, spec: r.spec },
    type: r.kind,
    ...(r.status !== "passed" ? { message: r.status === "blocked" ? `blocked by ${r.blockedBy ?? r.message}` : r.message.split("\n")[0] } : {}),
    ...(v === "failure" || v === "error" || v === "known" || v === "finding" ? { trace: failureDetails(r) } : {}),
    // Failures are run again: "intermittent" is CTRF's flaky (it failed, and passed when run again).
    ...(r.recurrence === "intermittent" ? { flaky: true } : {}),
    ...(r.runs ? { retries: r.runs - 1 } : {}),
    ...(r.property ? { parameters: { seed: r.property.seed, path: r.property.path, counterexample: r.property.counterexample } } : {}),
    extra: {
      label: shownAs(r, gate),
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.recurrence ? { recurrence: r.recurrence } : {}),
      ...(r.skipKind ? { skipKind: r.skipKind } : {}),
      ...(r.blockedBy ? { blockedBy: r.blockedBy } : {}),
      ...(v === "finding" ? { finding: shownAs(r, gate) } : {}),
      ...(reason
        ? { baseline: { known: true, reason } }
        : report.gate?.baseline?.new.includes(r.id)
          ? { baseline: { known: false, new: true } }
          : report.gate?.baseline?.fixed.includes(r.id)
            ? { baseline: { known: false, fixed: true } }
            : {}),
      ...(r.curl ? { curl: r.curl } : {}),
    },
  };
}

export function writeCtrf(report: Report, file: string, gate: GateOptions): void {
  writeFileSync(file, JSON.stringify(ctrfReport(report, gate), null, 2) + "\n");
}
