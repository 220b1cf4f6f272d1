/**
 * Benchmark: the suite against the bundled reference, as `conformance --reference` runs it (both
 * in one process), timed over a few repetitions, with the process's peak memory. Targets come
 * from the issues; a run over target exits 1. Usage: npm run bench [-- --repeat 3]
 */
import type { Check } from "../core/check.js";
import { runChecks } from "../core/runner.js";
import { Schemas } from "../core/schemas.js";
import { startReference } from "../reference/server.js";
import { catalogue } from "../suites/index.js";

interface Scenario {
  name: string;
  checks: Check[];
  writes: boolean;
  runs: number;
  targetMs: number;
}

const repeat = Number(process.argv[process.argv.indexOf("--repeat") + 1]) || 3;
const scenarios: Scenario[] = [
  { name: "read-only, default runs (issue 2: < 5 s)", checks: catalogue, writes: false, runs: 100, targetMs: 5_000 },
  { name: "example checks with writes (issue 3: < 10 s)", checks: catalogue.filter((c) => c.kind === "example"), writes: true, runs: 100, targetMs: 10_000 },
  { name: "everything with writes, 100 runs per property (issue 4: < 30 s)", checks: catalogue, writes: true, runs: 100, targetMs: 30_000 },
];

const schemas = await Schemas.load();
let overTarget = false;
for (const s of scenarios) {
  const times: number[] = [];
  let summary = "";
  for (let i = 0; i < repeat; i++) {
    const ref = await startReference();
    const c = ref.config() as any;
    const started = performance.now();
    const outcome = await runChecks(s.checks, { baseUrl: c.baseUrl, token: c.token, tokens: c.tokens, fixtures: c.fixtures, writes: s.writes, unremovableWrites: true, timeoutMs: 10_000, runs: s.runs, seed: 1000 + i, strict: false }, schemas);
    times.push(performance.now() - started);
    await ref.close();
    const by = (st: string) => outcome.results.filter((r) => r.status === st).length;
    summary = `${outcome.results.length} checks: ${by("passed")} passed, ${by("failed")} failed, ${by("skipped")} skipped, ${by("errored")} errored`;
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const ok = median <= s.targetMs;
  overTarget ||= !ok;
  console.log(`${ok ? "ok  " : "SLOW"} ${s.name}: median ${Math.round(median)} ms (min ${Math.round(times[0])}, max ${Math.round(times.at(-1)!)}, ${repeat} runs); ${summary}`);
}
console.log(`peak memory (RSS) of the process: ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`);
process.exit(overTarget ? 1 : 0);
