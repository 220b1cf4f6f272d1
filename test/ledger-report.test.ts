import { describe, expect, it } from "vitest";
import { ConsoleReporter, summaryLine } from "../core/reporters/console.js";
import { ctrfReport } from "../core/reporters/ctrf.js";
import { stepSummary } from "../core/reporters/github.js";
import { reportHtml } from "../core/reporters/html.js";
import { junitXml } from "../core/reporters/junit.js";
import { judged } from "../core/run/conformance.js";
import { buildReport } from "../core/run/report.js";
import type { CheckResult } from "../core/run/result.js";
import { onePerThing } from "../core/ledger/leftovers.js";
import { selectChecks } from "../core/run/select.js";
import { catalogue } from "../suites/index.js";
import { runAgainstReference } from "./reference-run.js";

/** A leftover is the tester's broken promise: every output names it, and the run fails (issue 19; README, Exit codes). */
describe("leftovers in the reports", () => {
  const leftovers = [
    `WORKBOOK 7 "cf-1-abcdef-wb-1" in deployment 1 (found by the sweep, not deleted); to remove it: curl -X POST 'http://x/api/v1/deployments/1/workspace/bulk-delete'`,
    `FOLDER 3 "cf-1-abcdef-folder-1" in deployment 1 (found by the sweep, not deleted); to remove it: curl -X POST 'http://x/api/v1/deployments/1/workspace/bulk-delete'`,
    "not removed: not confirmed as this run's: WORKBOOK 5 in deployment 1, named by the answer to PUT /x (E9 reads it named \"Revenue\"); to remove it: curl -X POST 'http://x'",
  ];
  /** What a sweep says where it could not read a list (the server stopped answering): nothing is known to be left, and nothing known to be gone. */
  const unread =
    "the sweep could not read the workspace of deployment 1 (GET http://x/api/v1/deployments/1/workbooks?first=100: connection refused): what the run left there is not known";
  const passed: CheckResult = { id: "a.one", group: "a", title: "a", spec: "E8", level: "MUST", kind: "example", status: "passed", message: "", durationMs: 1 };
  const report = (left: string[]) =>
    judged(
      buildReport(
        { results: [passed], leftovers: left, interrupted: false, durationMs: 1, startedAt: "2026-01-01T00:00:00.000Z" },
        { name: "t", version: "0", baseUrl: "http://x", seed: 1, runs: 1, writes: true },
      ),
      { strict: false },
      {},
    );

  it("the summary line names them, with their count and kinds; a clean run's says nothing of them", () => {
    expect(summaryLine(report(leftovers))).toMatch(/; LEFT ON THE SERVER: 3 things \(1 WORKBOOK, 1 FOLDER, 1 not confirmed as the run's\)$/);
    expect(summaryLine(report([]))).not.toMatch(/LEFT ON THE SERVER/);
  });

  it("where a list could not be read, what is left is said to be not known, never counted as a thing left", () => {
    expect(summaryLine(report([unread]))).toMatch(/; LEFT ON THE SERVER: not known in 1 place$/);
    expect(summaryLine(report([leftovers[0], unread]))).toMatch(/; LEFT ON THE SERVER: 1 thing \(1 WORKBOOK\); not known in 1 place$/);
    // A setting not put back, a removal that failed: each named by its kind, not "other".
    const staging =
      "could not restore the staging environment of branch release in deployment 1: GET http://x/api/v1/deployments/1/environments: connection refused";
    const removal = "could not remove workbook 9 in deployment 1: POST http://x/api/v1/deployments/1/workspace/bulk-delete answered 500";
    expect(summaryLine(report([staging, removal, unread]))).toMatch(/; LEFT ON THE SERVER: 2 things \(1 not put back, 1 not removed\); not known in 1 place$/);
  });

  it("every output fails the run for them, with the same words: the exit code, the console, JSON, HTML, JUnit, CTRF and the GitHub summary", () => {
    const r = report(leftovers);
    const said = "3 things (1 WORKBOOK, 1 FOLDER, 1 not confirmed as the run's)";
    // The run fails for what it made and left, not for the object it would not remove as not confirmed its own.
    expect(r.gate).toMatchObject({ exitCode: 1, leftBehind: "2 things (1 WORKBOOK, 1 FOLDER)" });
    expect(JSON.parse(JSON.stringify(r)).leftovers).toEqual(leftovers);
    const lines: string[] = [];
    new ConsoleReporter((l) => lines.push(l), { gate: { strict: false } }).finish(r, r.gate.exitCode);
    expect(lines.at(-1)).toMatch(/^conformance: FAILED/);
    expect(lines.filter((l) => l.startsWith("left on the server: "))).toHaveLength(3);
    const html = reportHtml(r, { strict: false });
    expect(/id="verdict">([^<]+)</.exec(html)?.[1]).toBe("FAILED");
    expect(html).toContain(`<h2>Left on the server: ${said.replace(/'/g, "&#39;")}</h2>`);
    const xml = junitXml(r, { strict: false });
    expect(xml).toMatch(/<testsuite name="leftovers" tests="1" failures="1"/);
    expect(xml).toContain(`<failure type="leftovers" message="left on the server: ${said}">WORKBOOK 7 "cf-1-abcdef-wb-1"`);
    const ctrf = ctrfReport(r, { strict: false }).results;
    expect(ctrf.summary).toMatchObject({ tests: 2, passed: 1, failed: 1, suites: 2 });
    expect(ctrf.tests.at(-1)).toMatchObject({ name: "the run leaves nothing on the server", status: "failed", message: `left on the server: ${said}` });
    expect(stepSummary(r, [], { strict: false })).toContain(`### Left on the server: ${said}`);
  });

  it("an object the ledger would not remove, not confirmed as the run's, is told everywhere and fails nothing", () => {
    const r = report([leftovers[2]]);
    expect(r.gate.exitCode).toBe(0);
    expect(r.gate.leftBehind).toBeUndefined();
    expect(summaryLine(r)).toMatch(/; LEFT ON THE SERVER: 1 thing \(1 not confirmed as the run's\)$/);
    const xml = junitXml(r, { strict: false });
    expect(xml).toMatch(/<testsuites [^>]*failures="0"/);
    expect(xml).toMatch(
      /<testsuite name="leftovers" tests="1" failures="0"[^>]*>\n\s*<testcase [^>]*>\n\s*<system-out>left on the server: 1 thing \(1 not confirmed as the run's\)\nnot removed: /,
    );
    expect(ctrfReport(r, { strict: false }).results.summary).toMatchObject({ tests: 2, failed: 0, other: 1 });
  });

  it("a run that left nothing: no leftovers testcase or test anywhere, and it passes", () => {
    const r = report([]);
    expect(r.gate.exitCode).toBe(0);
    expect(r.gate.leftBehind).toBeUndefined();
    expect(junitXml(r, { strict: false })).not.toMatch(/leftovers/);
    expect(ctrfReport(r, { strict: false }).results.summary).toMatchObject({ tests: 1, failed: 0, suites: 1 });
  });

  it("each thing once: the sweep's line of an item its cleanup could not delete replaces the cleanup's, in its place", () => {
    const cleanup = "REPORT 226 in deployment 1 was not deleted: bulk delete answered 400";
    const swept = `REPORT 226 "cf-1-abcdef-findme-1" in deployment 1 (found by the sweep, not deleted); to remove it: curl -X POST 'http://x'`;
    const other = "REPORT 226 in deployment 2 was not deleted: bulk delete answered 400";
    expect(onePerThing([cleanup, unread, other, swept])).toEqual([unread, other, swept]);
    expect(onePerThing([leftovers[0], leftovers[1], leftovers[2]])).toEqual(leftovers);
  });

  it("a server whose bulk delete keeps reports: every check passes, the run fails for what it left, each report once with its removal", async () => {
    const outcome = await runAgainstReference(selectChecks(catalogue, ["reports"]), { faults: ["bulk-delete-report-kept"], settings: { runs: 5 } });
    expect(outcome.results.filter((r) => r.status !== "passed")).toEqual([]);
    const ids = outcome.leftovers.map((l) => /^REPORT (\d+) /.exec(l)?.[1]);
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    for (const l of outcome.leftovers) expect(l).toMatch(/to remove it: curl -X POST /);
    const r = judged(buildReport(outcome, { name: "t", version: "0", baseUrl: "http://x", seed: 1, runs: 5, writes: true }), { strict: false }, {});
    expect(r.gate).toMatchObject({ exitCode: 1, leftBehind: `${ids.length} things (${ids.length} REPORT)` });
  });
});
