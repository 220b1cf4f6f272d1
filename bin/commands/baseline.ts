import { writeFileSync } from "node:fs";
import { baselineFrom, readBaseline, updateBaseline } from "../../core/run/gate.js";
import { UsageError } from "../../core/api/settings.js";
import { readReport } from "./report-file.js";

/**
 * `conformance baseline report.json > baseline.json`: every failure of a run as a known failure.
 * `conformance baseline update baseline.json report.json`: the file rewritten in place, keeping
 * the reasons the user wrote, without the entries whose check passes now, with each new failure
 * added under a placeholder reason to edit.
 */
export function baselineCommand(args: string[], out: (line: string) => void): number {
  if (args.length === 1 && args[0] !== "update") {
    out(JSON.stringify(baselineFrom(readReport(args[0]).results), null, 2));
    return 0;
  }
  if (args[0] !== "update" || args.length !== 3)
    throw new UsageError("usage: conformance baseline <report.json> | conformance baseline update <baseline.json> <report.json>");
  const [, file, reportFile] = args;
  const { baseline, kept, removed, added } = updateBaseline(readBaseline(file), readReport(reportFile).results);
  writeFileSync(file, JSON.stringify(baseline, null, 2) + "\n");
  out(
    `${file}: ${kept.length} kept, ${removed.length} removed (passes now)${removed.length ? `: ${removed.join(", ")}` : ""}, ${added.length} added${added.length ? ` (edit their reasons): ${added.join(", ")}` : ""}`,
  );
  return 0;
}
