import { PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

/**
 * How far V8 lets the heap grow past what the run held at its last full collection (1.5x), set
 * for the process of a run (the CLI's, the benchmark's child). A run allocates fast and holds
 * little: each answer is parsed, judged and dropped. V8 then grows the heap up to four times what
 * survives before it collects again: a run holding 40 MiB peaked at 185-208 MiB RSS; bounded at
 * 1.75x, 168-186 MiB (issue 21, the budget: peak RSS under 200 MiB); at 1.5x with the young
 * generation below, 156-159 MiB on Node 20 and 186-194 on Node 24, in the same CPU on Node 20
 * (docs/benchmarks.md, fourteenth round).
 * The flag is a heuristic read at each collection; one the user set (NODE_OPTIONS) is kept.
 */
const HEAP_GROWING_PERCENT = 50;

/**
 * The young generation's largest size (both semi-spaces). Node 20 stops at 32 MiB, Node 24's V8
 * at 128: a full run peaked at 288-320 MiB RSS there against 185-187 on Node 20, and no faster,
 * since a run's garbage dies young at any of these sizes (docs/benchmarks.md, tenth round). Node 24
 * also holds some 25 MiB more outside its heap (its larger binary, its compiler threads' memory):
 * at 8 MiB a run peaks under 200 MiB there too, for some 10 % more CPU on Node 24 and none
 * measured on Node 20 (fourteenth round).
 */
export const YOUNG_GENERATION_BYTES = 8 * 1024 * 1024;

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
 * Read after each collection, which is when V8 decides it. Collections are reported to an observer
 * only when the event loop turns, and loading the modules does not let it turn: V8 doubled the
 * young generation to its own maximum before the first report (Node 24: 32 MiB at 0.5 s, whatever
 * the cap). So it is held at its start size from the call until that first report: what loading
 * allocates lives on (code, the contract) and is promoted the sooner, in no more time.
 */
export function capYoungGeneration(bytes: number): void {
  let stopped = true;
  setFlagsFromString("--semi-space-growth-factor=1");
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
