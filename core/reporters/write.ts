import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GateOptions } from "../run/gate.js";
import type { HarRecorder } from "./har.js";
import type { Report } from "../run/report.js";

/**
 * The registry of file reporters: a name, the file it writes, and how. The CLI's choices, the
 * merge command's and the `reports:` line all read it; a new reporter is one entry here (and its
 * name in schemas/config.schema.json). Each writer is loaded only when its report is asked for.
 */
export const FILE_REPORTERS = {
  junit: { file: "junit.xml", write: async (r, path, gate) => (await import("./junit.js")).writeJUnit(r, path, gate) },
  json: { file: "report.json", write: async (r, path) => writeFileSync(path, JSON.stringify(r, null, 2) + "\n") },
  html: { file: "report.html", write: async (r, path, gate) => (await import("./html.js")).writeHtml(r, path, gate) },
  ctrf: { file: "ctrf-report.json", write: async (r, path, gate) => (await import("./ctrf.js")).writeCtrf(r, path, gate) },
  // Every exchange of the run: only a run records them (merge has none to write).
  har: { file: "run.har", write: async (r, path, _gate, har) => har?.write(path, r.tool), recorded: true },
} satisfies Record<string, { file: string; write: (r: Report, path: string, gate: GateOptions, har?: HarRecorder) => Promise<void>; recorded?: boolean }>;

export type FileReporter = keyof typeof FILE_REPORTERS;
/** What a run may be asked to report: the console and every file reporter. */
export const REPORTERS = ["console", ...(Object.keys(FILE_REPORTERS) as FileReporter[])] as const;
/** What `merge` can write from shards' reports: the file reporters that need no recording of the run. */
export const MERGE_REPORTERS = (Object.keys(FILE_REPORTERS) as FileReporter[]).filter((n) => !("recorded" in FILE_REPORTERS[n]));

/** Writes the chosen file reports into dir; returns their paths, for the `reports:` line. */
export async function writeReports(report: Report, reporters: Set<string>, dir: string, gate: GateOptions, har?: HarRecorder): Promise<string[]> {
  const files: string[] = [];
  for (const [name, reporter] of Object.entries(FILE_REPORTERS) as [FileReporter, (typeof FILE_REPORTERS)[FileReporter]][]) {
    if (!reporters.has(name) || (name === "har" && !har)) continue;
    mkdirSync(dir, { recursive: true });
    const path = join(dir, reporter.file);
    await reporter.write(report, path, gate, har);
    files.push(path);
  }
  return files;
}

export const reportsLine = (files: string[]) =>
  `reports: ${files.length ? files.join(", ") : `none written (--reporter ${Object.keys(FILE_REPORTERS).join(" ")} write them)`}`;
