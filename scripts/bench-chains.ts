/**
 * What no concurrency can overlap in a run, from its own exchange records (scripts/bench.ts): the
 * longest chain of one check's requests, and the longest chain through checks that must follow
 * one another.
 */
type Span = { start: number; end: number };

/** Checks that must follow one another (each conflicts with the one before), with their own chains end to end. */
export interface Path {
  checks: string[];
  requests: number;
  ms: number;
}

/** A check's longest run of requests each sent after the one before had its answer: what no concurrency can overlap. */
export interface Chain {
  checkId: string;
  requests: number;
  /** The time those requests took, one after the other. */
  ms: number;
}

/**
 * From the run's own exchange records: for each check, the most of its requests that did not
 * overlap (each started after the one before ended; the earliest-ending first gives the most),
 * and the longest of these over the run. At 40 ms a request, a run can end no sooner.
 */
export function longestChain(spans: Map<string, Span[]>): Chain {
  let best: Chain = { checkId: "", requests: 0, ms: 0 };
  for (const [checkId, list] of spans) {
    const { requests, ms } = chainOf(list);
    if (ms > best.ms) best = { checkId, requests, ms: Math.round(ms) };
  }
  return best;
}

/** The most requests of `list` that did not overlap, and their time end to end. */
function chainOf(list: Span[]): { requests: number; ms: number } {
  let requests = 0;
  let ms = 0;
  let free = -Infinity;
  for (const { start, end } of [...list].sort((a, b) => a.end - b.end)) {
    if (start < free) continue;
    requests++;
    ms += end - start;
    free = end;
  }
  return { requests, ms };
}

/**
 * The longest chain of requests that must follow one another across checks too: two checks that
 * conflict never overlap and keep their catalogue order (core/run/schedule.ts), so the requests of
 * each check's own chain follow those of every earlier check it conflicts with, whatever the
 * concurrency. The longest such path of checks, each weighed by its own chain (longestChain), is
 * a bound no scheduler of these shares can beat; the per-check chain is one of its terms. The
 * run's own exchanges before the first check's (discovery) and after the last one's (cleanup
 * sweep) are before and after every check.
 */
export function criticalPath(order: string[], conflicts: Set<number>[], spans: Map<string, Span[]>, outside: Span[]): Path {
  const own = order.map((id) => chainOf(spans.get(id) ?? []));
  const best: { ms: number; requests: number; from: number }[] = [];
  for (let i = 0; i < order.length; i++) {
    let from = -1;
    for (const j of conflicts[i]) if (j < i && (from < 0 || best[j].ms > best[from].ms)) from = j;
    best.push({ ms: own[i].ms + (from < 0 ? 0 : best[from].ms), requests: own[i].requests + (from < 0 ? 0 : best[from].requests), from });
  }
  let end = -1;
  for (let i = 0; i < order.length; i++) if (end < 0 || best[i].ms > best[end].ms) end = i;
  const checks: string[] = [];
  for (let i = end; i >= 0; i = best[i].from) checks.unshift(order[i]);
  const inChecks = [...spans.values()].flat();
  const first = Math.min(...inChecks.map((x) => x.start));
  const last = Math.max(...inChecks.map((x) => x.end));
  const before = chainOf(outside.filter((x) => x.end <= first));
  const after = chainOf(outside.filter((x) => x.start >= last));
  return {
    checks,
    requests: (end < 0 ? 0 : best[end].requests) + before.requests + after.requests,
    ms: Math.round((end < 0 ? 0 : best[end].ms) + before.ms + after.ms),
  };
}
