import junitModule from "junit-report-builder";
import { failureDetails, type Report } from "./report.js";

const junit = ((junitModule as any).default ?? junitModule) as { newBuilder(): any };

/** A testsuite per group, a testcase per check; failures carry the spec rule and the exchange. */
export function writeJUnit(report: Report, file: string): void {
  const builder = junit.newBuilder();
  const groups = [...new Set(report.results.map((r) => r.group))];
  for (const g of groups) {
    const suite = builder.testSuite().name(g).property("seed", report.seed).property("baseUrl", report.target.baseUrl);
    for (const r of report.results.filter((x) => x.group === g)) {
      const tc = suite.testCase().className(`conformance.${g}`).name(`${r.id} [${r.level} ${r.spec}] ${r.title}`).time(r.durationMs / 1000);
      if (r.status === "blocked") tc.failure(`${r.level} ${r.spec}: blocked by ${r.blockedBy ?? r.message}`, "blocked").standardOutput(failureDetails(r));
      else if (r.status === "failed") tc.failure(`${r.level} ${r.spec}: ${r.message}`, r.level).standardOutput(failureDetails(r));
      else if (r.status === "errored") tc.error(r.message).standardOutput(failureDetails(r));
      else if (r.status === "skipped") tc.skipped().standardOutput(`skipped: ${r.message}`);
    }
  }
  builder.writeTo(file);
}
