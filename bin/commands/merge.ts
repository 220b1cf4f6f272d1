import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MergeError, mergeReports } from "../../core/reporters/merge.js";
import type { Report } from "../../core/reporters/report.js";
import { UsageError } from "../../core/settings.js";
import { readReport } from "./report-file.js";

export interface MergeOptions {
  out: string;
  reporter: string[];
  strict?: boolean;
}

/** `conformance merge a.json b.json ...`: the shards' reports joined into one report.json (and junit.xml). */
export async function mergeCommand(files: string[], opts: MergeOptions, out: (l: string) => void): Promise<number> {
  const reports = files.map((file) => ({ file, report: readReport(file) }));
  const { catalogue } = await import("../../suites/index.js");
  let merged: Report;
  try {
    merged = mergeReports(reports, catalogue.map((c) => c.id));
  } catch (e) {
    if (e instanceof MergeError) throw new UsageError(e.message);
    throw e;
  }
  mkdirSync(opts.out, { recursive: true });
  if (opts.reporter.includes("json")) writeFileSync(join(opts.out, "report.json"), JSON.stringify(merged, null, 2) + "\n");
  if (opts.reporter.includes("junit")) (await import("../../core/reporters/junit.js")).writeJUnit(merged, join(opts.out, "junit.xml"), { strict: Boolean(opts.strict) });
  const s = merged.summary;
  out(`${files.length} reports merged into ${opts.out}: ${s.total} checks: ${s.passed} passed, ${s.failed} failed, ${s.blocked} blocked, ${s.skipped} skipped, ${s.errored} errored, ${s.requests} requests (seed ${merged.seed})`);
  const { exitCodeFor } = await import("../../core/runner.js");
  return merged.interrupted ? 130 : exitCodeFor(merged.results, Boolean(opts.strict));
}

