import type { GateOptions } from "../../core/run/gate.js";
import { MergeError, mergeReports } from "../../core/reporters/merge.js";
import type { Report } from "../../core/run/report.js";
import { UsageError } from "../../core/api/settings.js";
import { readReport } from "./report-file.js";

export interface MergeOptions {
  out: string;
  reporter: string[];
  strict?: boolean;
  baseline?: string;
  failOnFixed?: boolean;
}

/**
 * `conformance merge a.json b.json ...`: the shards' reports joined into one report, judged by the
 * same gate as a run without shards (--strict, --baseline, --fail-on-fixed): the same exit code,
 * the same JUnit, the same annotations on GitHub.
 */
export async function mergeCommand(files: string[], opts: MergeOptions, out: (l: string) => void): Promise<number> {
  const { readBaseline } = await import("../../core/run/gate.js");
  const { judged } = await import("../../core/run/conformance.js");
  const baseline = opts.baseline ? readBaseline(opts.baseline) : undefined;
  const reports = files.map((file) => ({ file, report: readReport(file) }));
  const { catalogue } = await import("../../suites/index.js");
  let joined: Report;
  try {
    joined = mergeReports(
      reports,
      catalogue.map((c) => c.id),
    );
  } catch (e) {
    if (e instanceof MergeError) throw new UsageError(e.message);
    throw e;
  }
  const gate: GateOptions = { strict: Boolean(opts.strict), baseline, failOnFixed: opts.failOnFixed };
  const merged = judged(joined, gate, { interrupted: joined.interrupted, baselineFile: opts.baseline });
  const { exitCode } = merged.gate;
  const { reportsLine, writeReports } = await import("../../core/reporters/write.js");
  const { baselineLines, summaryLine } = await import("../../core/reporters/console.js");
  const { publishToGitHub } = await import("../../core/reporters/github.js");
  const written = await writeReports(merged, new Set(opts.reporter), opts.out, gate);
  out(`${files.length} reports merged into ${opts.out}`);
  for (const line of [summaryLine(merged), ...baselineLines(merged)]) out(line);
  publishToGitHub(merged, gate, written, out);
  out(reportsLine(written));
  out(merged.interrupted ? "conformance: interrupted" : exitCode === 0 ? "conformance: passed" : "conformance: FAILED");
  return exitCode;
}
