import { describe, expect, it } from "vitest";
import { summaryLine } from "../core/reporters/console.js";
import { junitXml } from "../core/reporters/junit.js";
import { buildReport } from "../core/run/report.js";

/** A leftover is the tester's broken promise: every output names it (issue 19). */
describe("leftovers in the reports", () => {
  const leftovers = [
    `WORKBOOK 7 "cf-1-abcdef-wb-1" in deployment 1 (found by the sweep, not deleted); to remove it: curl -X POST 'http://x/api/v1/deployments/1/workspace/bulk-delete'`,
    `FOLDER 3 "cf-1-abcdef-folder-1" in deployment 1 (found by the sweep, not deleted); to remove it: curl -X POST 'http://x/api/v1/deployments/1/workspace/bulk-delete'`,
    "not removed: not confirmed as this run's: WORKBOOK 5 in deployment 1, named by the answer to PUT /x (E9 reads it named \"Revenue\"); to remove it: curl -X POST 'http://x'",
  ];
  const report = (left: string[]) =>
    buildReport(
      { results: [], leftovers: left, interrupted: false, durationMs: 1, startedAt: "2026-01-01T00:00:00.000Z" },
      { name: "t", version: "0", baseUrl: "http://x", seed: 1, runs: 1, writes: true },
    );

  it("the summary line names them, with their count and kinds; a clean run's says nothing of them", () => {
    expect(summaryLine(report(leftovers))).toMatch(/; LEFT ON THE SERVER: 3 thing\(s\) \(1 WORKBOOK, 1 FOLDER, 1 not confirmed as the run's\)$/);
    expect(summaryLine(report([]))).not.toMatch(/LEFT ON THE SERVER/);
  });

  it("JUnit carries a failed testcase listing each, which CI dashboards show; none when nothing is left", () => {
    const xml = junitXml(report(leftovers), { strict: false });
    expect(xml).toMatch(/<testsuite name="leftovers" tests="1" failures="1"/);
    expect(xml).toMatch(/<failure type="leftovers" message="3 thing\(s\) left on the server">WORKBOOK 7 "cf-1-abcdef-wb-1"/);
    expect(junitXml(report([]), { strict: false })).not.toMatch(/leftovers/);
  });
});
