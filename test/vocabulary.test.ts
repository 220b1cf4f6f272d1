import { describe, expect, it } from "vitest";
import type { CheckResult } from "../core/run/result.js";
import { ConsoleReporter } from "../core/reporters/console.js";
import { ctrfReport } from "../core/reporters/ctrf.js";
import { reportHtml } from "../core/reporters/html.js";
import { junitXml } from "../core/reporters/junit.js";
import { stepSummary } from "../core/reporters/github.js";
import { buildReport, rerunCommand } from "../core/run/report.js";
import { judged } from "../core/run/conformance.js";
import type { GateOptions } from "../core/run/gate.js";

/**
 * One run, five outputs and an exit code: each says the same words with the same counts. A SHOULD
 * finding is never "failed" where the verdict is "passed" (README, Verdicts; JUnit: a testcase with a
 * <system-out> finding; CTRF: status other).
 */
const result = (id: string, level: "MUST" | "SHOULD", status: CheckResult["status"], extra: Partial<CheckResult> = {}): CheckResult => ({
  id,
  group: id.split(".")[0],
  title: id,
  spec: "E11",
  level,
  kind: "example",
  status,
  message: status === "passed" ? "" : `${id} went wrong`,
  durationMs: 1,
  ...extra,
});

const FINDINGS = [result("b.should-one", "SHOULD", "failed"), result("b.should-two", "SHOULD", "failed")];
const INTERMITTENT = result("c.flaky", "MUST", "failed", { recurrence: "intermittent", failedRuns: 1, runs: 3 });
const PASSES = [result("a.one", "MUST", "passed"), result("a.two", "MUST", "passed"), result("a.three", "SHOULD", "passed")];
const MUST_FAILURE = result("d.must", "MUST", "failed");
const BLOCKED = result("d.blocked", "MUST", "blocked", { root: { check: "d.must" }, blockedBy: "d.must: PUT /x answered 500" });
/** A SHOULD check under the same root: outside --strict it fails nothing, so no output counts it as blocked (a run of the reference with e10-missing has one). */
const BLOCKED_SHOULD = result("d.blocked-should", "SHOULD", "blocked", { root: { check: "d.must" }, blockedBy: "d.must: PUT /x answered 500" });

function outputs(results: CheckResult[], gate: GateOptions = { strict: false }) {
  const report = judged(
    buildReport(
      { results, leftovers: [], interrupted: false, durationMs: 5, startedAt: "2026-01-01T00:00:00.000Z" },
      { name: "t", version: "0", baseUrl: "http://x", seed: 1, runs: 1, writes: true },
    ),
    gate,
    {},
  );
  const lines: string[] = [];
  new ConsoleReporter((l) => lines.push(l), { gate }).finish(report, report.gate.exitCode);
  const xml = junitXml(report, gate);
  const html = reportHtml(report, gate);
  const github = stepSummary(report, [], gate);
  const json = JSON.parse(JSON.stringify(report));
  return {
    exitCode: report.gate.exitCode,
    console: { summary: lines.find((l) => / checks: /.test(l))!, verdict: lines.at(-1)!, all: lines.join("\n") },
    junit: { failures: Number(/<testsuites [^>]*failures="(\d+)"/.exec(xml)![1]), xml },
    ctrf: ctrfReport(report, gate).results.summary,
    html: {
      verdict: /id="verdict">([^<]+)</.exec(html)![1],
      failed: Number(/id="count-failed">(\d+)</.exec(html)![1]),
      findings: Number(/id="count-findings">(\d+)</.exec(html)?.[1] ?? 0),
      failedBadges: (html.match(/<span class="badge failed">failed</g) ?? []).length,
      verified: /id="verified">([^<]+)</.exec(html)![1],
      page: html,
    },
    github,
    json: { summary: json.summary, labels: Object.fromEntries(json.results.map((r: CheckResult) => [r.id, r.label])) },
  };
}

describe("one vocabulary in every output", () => {
  it("SHOULD findings and an intermittent failure in a run that passes: nothing says failed", () => {
    const o = outputs([...PASSES, ...FINDINGS, INTERMITTENT]);
    expect(o.exitCode).toBe(0);
    expect(o.console.verdict).toBe("conformance: passed; verified 2 of 3 MUST rules (66.6 %)");
    expect(o.console.summary).toMatch(/^6 checks: 3 passed, 0 failed, 2 SHOULD findings, 1 intermittent, 0 blocked/);
    expect(o.console.all).not.toMatch(/^(FAIL|── \S+ failed)/m);
    expect(o.html).toMatchObject({ verdict: "passed", failed: 0, findings: 2, failedBadges: 0, verified: "verified 2 of 3 MUST rules (66.6 %)" });
    expect(o.junit.failures).toBe(0);
    expect(o.junit.xml).toContain("<system-out>SHOULD finding");
    expect(o.ctrf).toMatchObject({ failed: 0, other: 3, passed: 3 });
    expect(o.json.summary).toMatchObject({ failed: 0, findings: 2, intermittent: 1 });
    expect(o.json.labels).toMatchObject({ "b.should-one": "SHOULD finding", "b.should-two": "SHOULD finding", "c.flaky": "intermittent" });
  });

  it("a MUST failure, two SHOULD findings, a blocked MUST and a blocked SHOULD check, an intermittent one: the same counts everywhere", () => {
    const o = outputs([...PASSES, ...FINDINGS, INTERMITTENT, MUST_FAILURE, BLOCKED, BLOCKED_SHOULD]);
    expect(o.exitCode).toBe(1);
    expect(o.console.verdict).toBe("conformance: FAILED; verified 2 of 5 MUST rules (40 %)");
    expect(o.console.summary).toMatch(/^9 checks: 3 passed, 1 failed, 3 SHOULD findings, 1 intermittent, 1 blocked, 0 skipped, 0 errored/);
    expect(o.html).toMatchObject({ verdict: "FAILED", failed: 1, findings: 3, failedBadges: 1 });
    // JUnit and CTRF count as failed what fails the gate: the MUST failure and the blocked MUST check.
    expect(o.junit.failures).toBe(o.json.summary.failed + o.json.summary.blocked);
    expect(o.ctrf.failed).toBe(o.json.summary.failed + o.json.summary.blocked);
    expect(o.ctrf.other).toBe(o.json.summary.findings + o.json.summary.intermittent);
    expect(o.json.labels).toMatchObject({ "d.must": "failed", "d.blocked": "blocked", "d.blocked-should": "SHOULD finding", "b.should-one": "SHOULD finding" });
    expect(o.json.summary).toMatchObject({ failed: 1, blocked: 1, findings: 3 });
    expect(o.junit.xml).toContain("<system-out>blocked (SHOULD finding)");
    // Told under its root cause, counted among the findings: each place that counts says so.
    expect(o.console.all).toMatch(/^ +2 blocked by d\.must: .*d\.blocked-should \(1 of them a SHOULD finding\)$/m);
    // The section tells the lone intermittent failure too (it fails nothing): its heading says so, and counts what the tiles count apart.
    expect(o.html.page).toContain("<h2>SHOULD findings and intermittent failures: 4 (1 of them blocked: told under its root cause)</h2>");
    expect(o.html.page).toMatch(/blocks 2 \(1 of them a SHOULD finding\): /);
    // The GitHub step summary: the same heading and count, and each row in the word every output uses (a lone intermittent failure is not a SHOULD finding).
    expect(o.github).toContain("### SHOULD findings and intermittent failures and known failures: 4 (1 of them blocked: told under its root cause)");
    expect(o.github).toMatch(/^\| `c\.flaky` \| MUST E11 \| intermittent \(failed 1 of 3 runs: not failing\) \|/m);
    // Each failure ends with the command that re-runs it alone, with the run's seed, in the console and the page.
    expect(o.console.all).toContain("re-run alone: conformance --base-url http://x --check d.must --seed 1 --runs 1 --allow-writes");
    expect(o.html.page).toContain('<pre class="rerun">conformance --base-url http://x --check d.must --seed 1 --runs 1 --allow-writes</pre>');
  });

  it("the re-run line carries what the failure needs again: the run's opt-ins beyond --allow-writes, and --strict", () => {
    const base = { target: { baseUrl: "http://x" }, seed: 3, runs: 100, writes: true };
    const check = { id: "deployment-update.version.listed-forms", title: "t" };
    expect(rerunCommand({ ...base, optIns: ["deployment-changes", "admin-writes"], gate: { strict: true, exitCode: 1 } }, check)).toBe(
      "conformance --base-url http://x --check deployment-update.version.listed-forms --seed 3 --runs 100 --allow-writes --allow-deployment-changes --allow-admin-writes --strict",
    );
    // Against --reference, which grants every opt-in itself, and read-only: nothing to add.
    expect(rerunCommand({ ...base, target: { baseUrl: "http://x", reference: {} }, optIns: ["deployment-changes"] }, check)).toBe(
      "conformance --reference --check deployment-update.version.listed-forms --seed 3 --runs 100",
    );
    expect(rerunCommand({ ...base, writes: false }, check)).toBe(
      "conformance --base-url http://x --check deployment-update.version.listed-forms --seed 3 --runs 100",
    );
  });

  it("under --strict the SHOULD findings fail, and every output calls them failed", () => {
    const o = outputs([...PASSES, ...FINDINGS], { strict: true });
    expect(o.exitCode).toBe(1);
    expect(o.console.summary).toMatch(/^5 checks: 3 passed, 2 failed, 0 blocked/);
    expect(o.html).toMatchObject({ verdict: "FAILED", failed: 2, failedBadges: 2 });
    expect(o.junit.failures).toBe(2);
    expect(o.ctrf.failed).toBe(2);
    expect(o.json.summary.failed).toBe(2);
  });

  it("--min-verified fails a green run that verified too little, and says why", () => {
    const report = judged(
      buildReport(
        { results: PASSES, leftovers: [], interrupted: false, durationMs: 5, startedAt: "2026-01-01T00:00:00.000Z" },
        { name: "t", version: "0", baseUrl: "http://x", seed: 1, runs: 1, writes: true },
      ),
      { strict: false },
      { minVerified: 100 },
    );
    expect(report.gate.exitCode).toBe(0);
    const low = judged(
      buildReport(
        { results: [...PASSES, result("e.skip", "MUST", "skipped")], leftovers: [], interrupted: false, durationMs: 5, startedAt: "2026-01-01T00:00:00.000Z" },
        { name: "t", version: "0", baseUrl: "http://x", seed: 1, runs: 1, writes: true },
      ),
      { strict: false },
      { minVerified: 80 },
    );
    expect(low.gate.exitCode).toBe(1);
    expect(low.gate.verifiedBelow).toMatch(/^verified 2 of 3 MUST rules \(66.6 %\), below --min-verified 80 %/);
  });
});
