import type { CheckResult } from "../run/result.js";
import { inCatalogueOrder } from "../run/runner.js";
import { rootCauses, settle, summarise } from "../run/verdict.js";
import { labelled, type Report } from "../run/report.js";

/** Reports that cannot be joined: shards of different runs, or overlapping shards. */
export class MergeError extends Error {}

/**
 * One report from the reports of the shards of one run (`--shard i/n`, one CI job each): the
 * results of all, in catalogue order (`order`: the catalogue's ids; others keep their place at
 * the end), the span from the first start to the last end, the summary counted again. The
 * shards must share the seed and the runs per property, so that any result replays; a check
 * reported twice means the shards overlap.
 */
export function mergeReports(reports: { file: string; report: Report }[], order: string[]): Report {
  if (!reports.length) throw new MergeError("nothing to merge: name at least one report.json");
  const [first] = reports;
  for (const { file, report } of reports) {
    if (report.seed !== first.report.seed)
      throw new MergeError(`${file} ran with seed ${report.seed}, ${first.file} with ${first.report.seed}: pass the same --seed to every shard`);
    if (report.runs !== first.report.runs)
      throw new MergeError(`${file} ran ${report.runs} runs per property, ${first.file} ${first.report.runs}: pass the same --runs to every shard`);
  }
  checkShardSet(reports);
  const from = new Map<string, string>();
  const results: CheckResult[] = [];
  const watched = new Map<string, CheckResult[]>();
  for (const { file, report } of reports)
    for (const r of report.results) {
      // Each shard's invariants judged that shard's traffic: joined below, not an overlap.
      if (r.kind === "invariant") {
        watched.set(r.id, [...(watched.get(r.id) ?? []), r]);
        continue;
      }
      const earlier = from.get(r.id);
      if (earlier) throw new MergeError(`${r.id} is in both ${earlier} and ${file}: the shards overlap`);
      from.set(r.id, file);
      results.push(r);
    }
  for (const verdicts of watched.values()) results.push(joinVerdicts(verdicts));
  // A defect two shards both met reads as one failure here too.
  const ordered = settle(inCatalogueOrder(results, order));
  const starts = reports.map(({ report }) => Date.parse(report.startedAt));
  const start = Math.min(...starts);
  const end = Math.max(...reports.map(({ report }, i) => starts[i] + report.durationMs));
  return {
    tool: first.report.tool,
    target: first.report.target,
    seed: first.report.seed,
    runs: first.report.runs,
    writes: reports.some(({ report }) => report.writes),
    ...optInsOf(reports.map(({ report }) => report)),
    ...(first.report.selection ? { selection: first.report.selection } : {}),
    startedAt: new Date(start).toISOString(),
    durationMs: end - start,
    interrupted: reports.some(({ report }) => report.interrupted),
    summary: summarise(ordered),
    rootCauses: rootCauses(ordered),
    leftovers: reports.flatMap(({ report }) => report.leftovers),
    results: labelled(ordered),
  };
}

const sameSelection = (a: Report["selection"], b: Report["selection"]) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const describeSelection = (s: Report["selection"]) =>
  s
    ? `${s.selected} checks${s.groups ? ` of --group ${s.groups.join(" ")}` : ""}${s.checks ? ` of --check ${s.checks.join(" ")}` : ""}${s.separateServers ? " (--reference: a server per shard)" : ""}`
    : "no recorded selection";

/**
 * The reports must be the n shards of one run, each once: the same --shard count, every index
 * from 1 to n, the same selection (the same --group and --check). Two of three shards merged
 * would read as a complete run that passed.
 */
function checkShardSet(reports: { file: string; report: Report }[]): void {
  const [first] = reports;
  const byIndex = new Map<number, string>();
  for (const { file, report } of reports) {
    if (!report.shard) throw new MergeError(`${file} is not the report of a shard (run with --shard i/n): merge joins the shards of one run`);
    if (report.shard.count !== first.report.shard!.count)
      throw new MergeError(
        `${file} is shard ${report.shard.index}/${report.shard.count}, ${first.file} is ${first.report.shard!.index}/${first.report.shard!.count}: the shards of one run share n`,
      );
    if (!sameSelection(report.selection, first.report.selection))
      throw new MergeError(
        `${file} selected ${describeSelection(report.selection)}, ${first.file} ${describeSelection(first.report.selection)}: every shard needs the same --group and --check (and --reference in all or none)`,
      );
    const earlier = byIndex.get(report.shard.index);
    if (earlier) throw new MergeError(`shard ${report.shard.index}/${report.shard.count} is given twice (${earlier} and ${file})`);
    byIndex.set(report.shard.index, file);
  }
  const count = first.report.shard!.count;
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length)
    throw new MergeError(
      `shard${missing.length > 1 ? "s" : ""} ${missing.map((i) => `${i}/${count}`).join(", ")} missing: merge needs all ${count} shards of the run`,
    );
}

/** One invariant over all shards: failed if any shard saw it broken (that shard's first violation), else passed if any saw it hold, else not exercised. */
function joinVerdicts(verdicts: CheckResult[]): CheckResult {
  const rank = (r: CheckResult) => ["failed", "errored", "passed", "blocked", "skipped"].indexOf(r.status);
  return [...verdicts].sort((a, b) => rank(a) - rank(b))[0];
}

/** The opt-ins any shard had, in the order the first shard to have each named it: a merged re-run line needs them all. */
function optInsOf(reports: Report[]): Pick<Report, "optIns"> {
  const optIns = [...new Set(reports.flatMap((r) => r.optIns ?? []))];
  return optIns.length ? { optIns } : {};
}
