import { setFlagsFromString } from "node:v8";

/**
 * How far V8 lets the heap grow past what the run held at its last full collection (1.75x), set
 * for the process of a run (the CLI's, the benchmark's child). A run allocates fast and holds
 * little: each answer is parsed, judged and dropped. V8 then grows the heap up to four times what
 * survives before it collects again: a run holding 40 MiB peaked at 185-208 MiB RSS; so bounded,
 * at 168-186 MiB, in no more time (issue 21, the budget: peak RSS under 200 MiB).
 * The flag is a heuristic read at each collection; one the user set (NODE_OPTIONS) is kept.
 */
const HEAP_GROWING_PERCENT = 75;

export function boundHeapGrowth(): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].join(" ");
  if (/heap[-_]growing[-_]percent/.test(given)) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
