import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeCtrf } from "./ctrf.js";
import type { GateOptions } from "../run/gate.js";
import type { HarRecorder } from "./har.js";
import { writeHtml } from "./html.js";
import { writeJUnit } from "./junit.js";
import type { Report } from "./report.js";

/** Writes the chosen file reports into dir; returns their paths, for the `reports:` line. */
export function writeReports(report: Report, reporters: Set<string>, dir: string, gate: GateOptions, har?: HarRecorder): string[] {
  const files: string[] = [];
  const write = (name: string, f: (path: string) => void) => {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    f(path);
    files.push(path);
  };
  if (reporters.has("junit")) write("junit.xml", (p) => writeJUnit(report, p, gate));
  if (reporters.has("json")) write("report.json", (p) => writeFileSync(p, JSON.stringify(report, null, 2) + "\n"));
  if (reporters.has("html")) write("report.html", (p) => writeHtml(report, p, gate));
  if (reporters.has("ctrf")) write("ctrf-report.json", (p) => writeCtrf(report, p, gate));
  if (reporters.has("har") && har) write("run.har", (p) => har.write(p, report.tool));
  return files;
}

export const reportsLine = (files: string[]) => `reports: ${files.length ? files.join(", ") : "none written (--reporter junit json html ctrf har write them)"}`;
