/**
 * The order every report tells a run in, read by the console, the HTML page and the GitHub step
 * summary alike: what fails the run first (MUST failures, then the tester's errors), then the
 * blocked roots, then SHOULD findings and the baseline's known failures, then what was left on
 * the server; the skips last, grouped by reason. A blocked check is told under its root cause only.
 */
import { type GateOptions, verdict } from "../run/gate.js";
import type { CheckResult } from "../run/result.js";
import type { Report } from "../run/report.js";

export interface SkipGroup {
  reason: string;
  ids: string[];
}

export interface ReportSections {
  /** Failed checks that fail the run: MUST ones (and SHOULD ones under --strict), MUST first. */
  failures: CheckResult[];
  /** Checks with no verdict because the tester could not finish them (network, rate limit, time limit). */
  errors: CheckResult[];
  rootCauses: Report["rootCauses"];
  /** SHOULD failures that do not fail the run. */
  findings: CheckResult[];
  /** Blocked checks that fail nothing (SHOULD ones outside --strict): told under their root causes, counted among the findings. */
  blockedFindings: CheckResult[];
  /** Failures the --baseline accepts. */
  known: CheckResult[];
  /** Each thing left on the server once, with how often it was reported. */
  leftovers: { what: string; times: number }[];
  /** Most frequent reason first. */
  skips: SkipGroup[];
}

export function reportSections(report: Pick<Report, "results" | "rootCauses" | "leftovers">, gate: GateOptions): ReportSections {
  const { results } = report;
  const by = (v: ReturnType<typeof verdict>, status?: CheckResult["status"]) =>
    results.filter((r) => verdict(r, gate) === v && (!status || r.status === status));
  const mustFirst = (rs: CheckResult[]) => [...rs].sort((a, b) => Number(a.level !== "MUST") - Number(b.level !== "MUST"));
  const leftovers = new Map<string, number>();
  for (const l of report.leftovers) leftovers.set(l, (leftovers.get(l) ?? 0) + 1);
  return {
    failures: mustFirst(by("failure", "failed")),
    errors: by("error"),
    rootCauses: report.rootCauses,
    findings: by("finding", "failed"),
    blockedFindings: by("finding", "blocked"),
    known: by("known"),
    leftovers: [...leftovers].map(([what, times]) => ({ what, times })),
    skips: skipGroups(results),
  };
}

/** How many of a root cause's blocked checks are SHOULD findings (they fail nothing), said beside its count: "(1 of them a SHOULD finding)". */
export function findingsNote(blocked: string[], findings: CheckResult[]): string {
  const n = blocked.filter((id) => findings.some((r) => r.id === id)).length;
  return n ? ` (${n} of them ${n === 1 ? "a SHOULD finding" : "SHOULD findings"})` : "";
}

/** The findings section's title: it tells lone intermittent failures too (they fail nothing), and says so. */
export const findingsTitle = (parts: Pick<ReportSections, "findings">): string =>
  parts.findings.some((r) => r.recurrence === "intermittent") ? "SHOULD findings and intermittent failures" : "SHOULD findings";

/** The findings section's count: the findings told there (and `alsoTold` others a section joins to them) and the blocked ones told under their roots. */
export function findingsHeading(parts: Pick<ReportSections, "findings" | "blockedFindings">, alsoTold = 0): string {
  const blocked = parts.blockedFindings.length;
  return `${parts.findings.length + alsoTold + blocked}${blocked ? ` (${blocked} of them blocked: told under ${blocked === 1 ? "its root cause" : "their root causes"})` : ""}`;
}

/** Skips grouped by their message (the reason the user's setup gives), most frequent first. */
export function skipGroups(results: CheckResult[]): SkipGroup[] {
  const byReason = new Map<string, string[]>();
  for (const r of results) if (r.status === "skipped") byReason.set(r.message, [...(byReason.get(r.message) ?? []), r.id]);
  return [...byReason].map(([reason, ids]) => ({ reason, ids })).sort((a, b) => b.ids.length - a.ids.length);
}
