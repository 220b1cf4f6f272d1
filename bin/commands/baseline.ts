import { baselineFrom } from "../../core/gate.js";
import { readReport } from "./report-file.js";

/** `conformance baseline report.json > baseline.json`: every failure of a run as a known failure. */
export function baselineCommand(reportFile: string, out: (line: string) => void): number {
  out(JSON.stringify(baselineFrom(readReport(reportFile).results), null, 2));
  return 0;
}
