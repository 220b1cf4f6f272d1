import { PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

/**
 * How far V8 lets the heap grow past what the run held at its last full collection (1.75x), set
 * for the process of a run (the CLI's, the benchmark's child). A run allocates fast and holds
 * little: each answer is parsed, judged and dropped. V8 then grows the heap up to four times what
 * survives before it collects again: a run holding 40 MiB peaked at 185-208 MiB RSS; so bounded,
 * at 168-186 MiB, in no more time (issue 21, the budget: peak RSS under 200 MiB).
 * The flag is a heuristic read at each collection; one the user set (NODE_OPTIONS) is kept.
 */
const HEAP_GROWING_PERCENT = 75;

/**
 * The young generation's largest size (both semi-spaces), Node 20's own maximum. Node 24's V8
 * lets it grow to 128 MiB: a full run peaked at 288-320 MiB RSS there against 185-187 on Node 20,
 * and no faster, since a run's garbage dies young at either size (docs/benchmarks.md, tenth round).
 */
export const YOUNG_GENERATION_BYTES = 32 * 1024 * 1024;

export function boundHeapGrowth(): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].join(" ");
  if (!/heap[-_]growing[-_]percent/.test(given)) {
    setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  }
  if (!/semi[-_]space/.test(given)) capYoungGeneration(YOUNG_GENERATION_BYTES);
}

/**
 * Keeps the young generation at most `bytes`. Its size limit is fixed when the process starts, so
 * it cannot be lowered here; but V8 reads its growth factor each time it grows the young
 * generation, so growth stops once it has reached the cap (and resumes if V8 shrank it below).
 * Read after each collection, which is when V8 decides it.
 */
export function capYoungGeneration(bytes: number): void {
  let stopped = false;
  const observer = new PerformanceObserver(() => {
    const atCap = youngGenerationBytes() >= bytes;
    if (atCap === stopped) return;
    stopped = atCap;
    setFlagsFromString(`--semi-space-growth-factor=${atCap ? 1 : 2}`);
  });
  observer.observe({ entryTypes: ["gc"] });
}

export function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
}
