import { type CheckResult, inCatalogueOrder, rootCauses, summarise } from "../runner.js";
import { blockSharedDefects } from "../shared-defects.js";
import type { Report } from "./report.js";

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
    if (report.seed !== first.report.seed) throw new MergeError(`${file} ran with seed ${report.seed}, ${first.file} with ${first.report.seed}: pass the same --seed to every shard`);
    if (report.runs !== first.report.runs) throw new MergeError(`${file} ran ${report.runs} runs per property, ${first.file} ${first.report.runs}: pass the same --runs to every shard`);
  }
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
  const ordered = blockSharedDefects(inCatalogueOrder(results, order));
  const starts = reports.map(({ report }) => Date.parse(report.startedAt));
  const start = Math.min(...starts);
  const end = Math.max(...reports.map(({ report }, i) => starts[i] + report.durationMs));
  return {
    tool: first.report.tool,
    target: first.report.target,
    seed: first.report.seed,
    runs: first.report.runs,
    writes: reports.some(({ report }) => report.writes),
    startedAt: new Date(start).toISOString(),
    durationMs: end - start,
    interrupted: reports.some(({ report }) => report.interrupted),
    summary: summarise(ordered),
    rootCauses: rootCauses(ordered),
    leftovers: reports.flatMap(({ report }) => report.leftovers),
    results: ordered,
  };
}

/** One invariant over all shards: failed if any shard saw it broken (that shard's first violation), else passed if any saw it hold, else not exercised. */
function joinVerdicts(verdicts: CheckResult[]): CheckResult {
  const rank = (r: CheckResult) => ["failed", "errored", "passed", "blocked", "skipped"].indexOf(r.status);
  return [...verdicts].sort((a, b) => rank(a) - rank(b))[0];
}
