import { readFileSync } from "node:fs";
import type { Report } from "../../core/run/report.js";
import { UsageError } from "../../core/api/settings.js";

/** A report.json written by --reporter json; anything else is a usage error (one line, exit 2). */
export function readReport(file: string): Report {
  try {
    const r = JSON.parse(readFileSync(file, "utf8")) as Report;
    if (!Array.isArray(r.results) || typeof r.seed !== "number") throw new Error("not a conformance report");
    return r;
  } catch (e) {
    throw new UsageError(`cannot read report ${file}: ${(e as Error).message.split("\n")[0]}`);
  }
}
