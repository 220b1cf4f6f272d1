import { isFailing } from "../../core/run/gate.js";
import type { Report } from "../../core/run/report.js";
import type { CheckResult } from "../../core/run/result.js";
import { label } from "../../core/run/verdict.js";
import { readReport } from "./report-file.js";

type Brief = Pick<CheckResult, "id" | "level" | "status" | "message" | "recurrence" | "failedRuns" | "skipKind">;

export interface Comparison {
  /** Not failing before (passed or skipped), failing now. */
  regressions: { old: Brief; new: Brief }[];
  /** Failing before, passing now. */
  fixes: { old: Brief; new: Brief }[];
  /** Any other change of status (passed to skipped, failed to blocked...). */
  changed: { old: Brief; new: Brief }[];
  added: Brief[];
  removed: Brief[];
}

export function compareReports(before: Report, after: Report): Comparison {
  const old = new Map(before.results.map((r) => [r.id, r]));
  const now = new Map(after.results.map((r) => [r.id, r]));
  const c: Comparison = { regressions: [], fixes: [], changed: [], added: [], removed: [] };
  for (const r of after.results) {
    const o = old.get(r.id);
    if (!o) c.added.push(r);
    else if (!isFailing(o) && isFailing(r)) c.regressions.push({ old: o, new: r });
    else if (isFailing(o) && r.status === "passed") c.fixes.push({ old: o, new: r });
    else if (label(o) !== label(r)) c.changed.push({ old: o, new: r });
  }
  for (const o of before.results) if (!now.has(o.id)) c.removed.push(o);
  return c;
}

/** The server a report names: its URL, or the bundled reference with its faults (each --reference run listens on a port of its own). */
function serverOf(report: Report): string {
  const ref = report.target.reference;
  if (!ref) return report.target.baseUrl;
  return ref.faults?.length ? `the bundled reference with --fault ${ref.faults.join(" ")}` : "the bundled reference";
}

/** `conformance compare old.json new.json`: exit 1 on a MUST regression (any regression under --strict). */
export function compareCommand(oldFile: string, newFile: string, opts: { strict?: boolean; json?: boolean }, out: (line: string) => void): number {
  const [before, after] = [readReport(oldFile), readReport(newFile)];
  // Two servers compared read as regressions and fixes of one: said, not refused (a staging and a production run may be meant).
  if (serverOf(before) !== serverOf(after))
    process.stderr.write(
      `conformance: warning: the reports name different servers (${oldFile}: ${serverOf(before)}, ${newFile}: ${serverOf(after)}): a difference may be the servers', not a change\n`,
    );
  const c = compareReports(before, after);
  const failing = c.regressions.filter((x) => x.new.level === "MUST" || opts.strict);
  if (opts.json) out(JSON.stringify(c, null, 2));
  else {
    const line = (x: Brief) => `${x.id} (${x.level}): ${x.status}${x.status === "passed" ? "" : `: ${x.message.split("\n")[0]}`}`;
    const section = (title: string, lines: string[]) => {
      if (!lines.length) return;
      out(`${title} (${lines.length}):`);
      for (const l of lines) out(`  ${l}`);
    };
    section(
      "regressions",
      c.regressions.map((x) => `${line(x.new)} (was ${label(x.old)})`),
    );
    section(
      "fixes",
      c.fixes.map((x) => `${x.new.id} (${x.new.level}): passes now (was ${label(x.old)})`),
    );
    section(
      "changed",
      c.changed.map((x) => `${x.new.id}: ${label(x.old)} -> ${label(x.new)}`),
    );
    section("new checks", c.added.map(line));
    section(
      "removed checks",
      c.removed.map((x) => `${x.id} (${x.level})`),
    );
    out(
      `compare: ${c.regressions.length} regression(s), ${c.fixes.length} fix(es), ${c.changed.length} other change(s), ${c.added.length} new and ${c.removed.length} removed check(s)`,
    );
  }
  return failing.length ? 1 : 0;
}
