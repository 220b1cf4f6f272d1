import { PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

/** How far the heap of a run's process may grow (issue 21, the budget: peak RSS under 200 MiB). */
export interface HeapBounds {
  /**
   * How far V8 lets the heap grow past what the run held at its last full collection (75: 1.75x).
   * A run allocates fast and holds little: each answer is parsed, judged and dropped. V8 grows the
   * heap up to four times what survives before it collects again: a run holding 40 MiB peaked at
   * 185-208 MiB RSS; at 1.75x, 168-186 MiB in no more time.
   */
  heapGrowingPercent: number;
  /**
   * The young generation's largest size (both semi-spaces). Node 20 stops at 32 MiB, Node 24's V8
   * at 128: a full run peaked at 288-320 MiB RSS there, and no faster, since a run's garbage dies
   * young at any of these sizes (docs/benchmarks.md, tenth round).
   */
  youngGenerationBytes: number;
}

const MiB = 1024 * 1024;

/**
 * The bounds of the first row whose Node.js major the process has reached. Node 24 holds some
 * 25 MiB more outside its heap than Node 20 (its larger binary, its compiler threads' memory), so
 * its heap gets less. Full runs with writes, five reporters, peak RSS (docs/benchmarks.md,
 * fourteenth round): Node 20 172-176 MiB at the second row, for 2 % more CPU than at 32 MiB (185-190
 * MiB); Node 22 175-180 MiB (195-204 at 32 MiB); Node 24 185-195 MiB at the first row, for some 10 %
 * more CPU (195-222 at the second).
 */
const BOUNDS_FROM_NODE_MAJOR: readonly (HeapBounds & { fromMajor: number })[] = [
  { fromMajor: 24, heapGrowingPercent: 50, youngGenerationBytes: 8 * MiB },
  { fromMajor: 0, heapGrowingPercent: 75, youngGenerationBytes: 16 * MiB },
];

export function heapBounds(nodeMajor = Number(process.versions.node.split(".")[0])): HeapBounds {
  return BOUNDS_FROM_NODE_MAJOR.find((row) => nodeMajor >= row.fromMajor) ?? BOUNDS_FROM_NODE_MAJOR[BOUNDS_FROM_NODE_MAJOR.length - 1];
}

/** Sets the process's bounds; the user's own (NODE_OPTIONS, flags given to node) are kept. */
export function boundHeapGrowth(bounds = heapBounds()): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].join(" ");
  if (!/heap[-_]growing[-_]percent/.test(given)) setFlagsFromString(`--heap-growing-percent=${bounds.heapGrowingPercent}`);
  if (!/semi[-_]space/.test(given)) capYoungGeneration(bounds.youngGenerationBytes);
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
