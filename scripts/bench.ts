/**
 * Benchmark (issue 10): the suite against the bundled reference, as `conformance --reference
 * --allow-writes` runs it (both in one process), each scenario in a child process of its own so
 * that its peak memory is its own. Measures the full run with writes on loopback (concurrency 1
 * and 8; at 8 also with the reference in a worker thread), the same behind 40 ms of added latency
 * per request, the requests made, the peak RSS, a raw undici loop against the same server (the
 * ratio of request rates) and the wall time of `--help`. Writes bench/results.json and prints a Markdown table for the README. Not a test:
 * timings of a loaded machine say little.
 * Also the wait as a person has it: the whole `conformance --reference --allow-writes` process, start to exit with
 * its reports, beside the in-process figure and a raw undici floor sending the same number of requests one at a time,
 * in side-by-side pairs, with where the whole process's time goes (before the run, the run, after it); and, at 40 ms
 * a request, the run against its longest chain of requests that must follow one another (from its own exchanges).
 * Usage: npm run bench [-- --repeat 3] [-- --only <scenario>|process]
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { packageRoot } from "../core/api/paths.js";
import { type Chain, criticalPath, longestChain, type Path } from "./bench-chains.js";

interface Scenario {
  name: string;
  what: string;
  concurrency: number;
  latencyMs: number;
  targetMs?: number;
  /** The reference in a worker thread of its own (reference/thread.ts) instead of the suite's thread. */
  worker?: boolean;
}

const scenarios: Scenario[] = [
  { name: "loopback-c1", what: "full run with writes, loopback, --concurrency 1", concurrency: 1, latencyMs: 0 },
  // Targets of issue 21 (section 5, the budget).
  { name: "loopback-c8", what: "full run with writes, loopback, --concurrency 8", concurrency: 8, latencyMs: 0, targetMs: 5_000 },
  // Whether a core each for suite and server pays on this machine: --reference adopts it once it does.
  { name: "loopback-c8-worker", what: "the same, the reference in a worker thread", concurrency: 8, latencyMs: 0, worker: true },
  { name: "latency40-c8", what: "full run with writes, 40 ms per request, --concurrency 8", concurrency: 8, latencyMs: 40, targetMs: 30_000 },
];
const RSS_TARGET_MIB = 200;
/** At 40 ms a request, the run within this many times its longest chain of requests that must follow one another. */
const CHAIN_TARGET = 1.5;
const HELP_TARGET_MS = 300;
const UNDICI_REQUESTS = 3000;
/** How many side-by-side pairs the wait as a person has it takes at least: their medians are given. */
const PROCESS_PAIRS = 3;

interface RunFigures {
  wallMs: number;
  /** CPU time of the run (user and system, suite and reference together): on a shared machine the wall time follows the others' load, this does not. */
  cpuMs: number;
  checkRequests: number;
  allRequests: number;
  requestsPerSecond: number;
  peakRssMiB: number;
  summary: Record<string, number>;
  /** Checks that did not pass: a benchmark of a broken run measures nothing. */
  notPassed: string[];
  /** The longest chain of requests one check sent one after another (see longestChain). */
  chain: Chain;
  /** The longest chain through checks that must follow one another as well (see criticalPath). */
  path: Path;
}

const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);

/** In a child: one full run against a fresh reference; prints its figures as JSON. */
async function runScenario(s: Scenario): Promise<RunFigures> {
  // As bin/conformance.ts does for a run's process.
  (await import("../core/run/heap.js")).boundHeapGrowth();
  const { runChecks } = await import("../core/run/runner.js");
  const { Schemas } = await import("../core/api/schemas.js");
  const { startReference } = await import("../reference/server.js");
  const { startReferenceThread } = await import("../reference/thread.js");
  const { catalogue } = await import("../suites/index.js");
  const { isInvariant } = await import("../core/run/invariants.js");
  const { conflictTable } = await import("../core/run/schedule.js");
  const ref = await (s.worker ? startReferenceThread : startReference)({ latencyMs: s.latencyMs });
  const c = ref.config() as any;
  let allRequests = 0;
  const spans = new Map<string, { start: number; end: number }[]>();
  const outside: { start: number; end: number }[] = [];
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const outcome = await runChecks(
    catalogue,
    {
      baseUrl: c.baseUrl,
      token: c.token,
      tokens: c.tokens,
      fixtures: c.fixtures,
      writes: true,
      unremovableWrites: true,
      deploymentChanges: true,
      adminWrites: true,
      deploymentLifecycle: true,
      gitOperations: true,
      unnamedOperations: true,
      timeoutMs: 10_000,
      runs: 100,
      seed: 1000,
      strict: false,
      concurrency: s.concurrency,
    },
    await Schemas.load(),
    {
      onExchange: (x, checkId) => {
        allRequests++;
        const end = performance.now();
        if (!checkId) return void outside.push({ start: end - x.durationMs, end });
        const list = spans.get(checkId) ?? [];
        spans.set(checkId, list);
        list.push({ start: end - x.durationMs, end });
      },
    },
  );
  const wallMs = Math.round(performance.now() - started);
  const cpu = process.cpuUsage(cpuBefore);
  await ref.close();
  const by = (st: string) => outcome.results.filter((r) => r.status === st).length;
  return {
    wallMs,
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    checkRequests: outcome.results.reduce((n, r) => n + (r.requests ?? 0), 0),
    allRequests,
    requestsPerSecond: Math.round((allRequests / wallMs) * 1000),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    summary: { total: outcome.results.length, passed: by("passed"), failed: by("failed"), skipped: by("skipped"), errored: by("errored") },
    notPassed: outcome.results.filter((r) => r.status !== "passed").map((r) => `${r.status} ${r.id}: ${r.message.split("\n")[0].slice(0, 200)}`),
    chain: longestChain(spans),
    // The run's own order and conflicts, as the runner schedules them (core/run/runner.ts: invariants do not run).
    path: criticalPath(
      catalogue.filter((c) => !isInvariant(c)).map((c) => c.id),
      conflictTable(catalogue.filter((c) => !isInvariant(c))),
      spans,
      outside,
    ),
  };
}

/** In a child: plain undici GETs, one after the other, against the same kind of server (`count` of them). */
async function undiciLoop(count = UNDICI_REQUESTS): Promise<{ requests: number; wallMs: number; cpuMs: number; requestsPerSecond: number }> {
  const { Agent, request } = await import("undici");
  const { startReference } = await import("../reference/server.js");
  const ref = await startReference();
  const c = ref.config() as any;
  const dep = String(c.fixtures.deploymentId ?? "");
  const agent = new Agent({ connections: 16 });
  const list = await request(`${c.baseUrl}/api/v1/deployments?limit=1`, { headers: { authorization: `Bearer ${c.token}` }, dispatcher: agent });
  const first = ((await list.body.json()) as any)?.data?.deployments?.[0]?.id ?? dep;
  const paths = ["/api/v1/deployments?limit=5", `/api/v1/deployments/${first}/environments`, `/api/v1/deployments/${first}/workbooks?first=20`];
  const started = performance.now();
  // Both ends' CPU (the server is in this thread too): on a shared machine the wall follows the others' load.
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const res = await request(c.baseUrl + paths[i % paths.length], { headers: { authorization: `Bearer ${c.token}` }, dispatcher: agent });
    await res.body.text();
  }
  const wallMs = Math.round(performance.now() - started);
  const cpu = process.cpuUsage(cpuBefore);
  await agent.close();
  await ref.close();
  return { requests: count, wallMs, cpuMs: Math.round((cpu.user + cpu.system) / 1000), requestsPerSecond: Math.round((count / wallMs) * 1000) };
}

function child(kind: string, ...extra: string[]): any {
  const res = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", kind, ...extra], {
    cwd: packageRoot,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (res.status !== 0) throw new Error(`bench child ${kind} failed: ${res.stderr}`);
  return JSON.parse(res.stdout.trim().split("\n").at(-1)!);
}

/** Wall times of a node process with these arguments: `--help`, and bare node for the floor. */
function wallMs(args: string[], times: number): number[] {
  return Array.from({ length: times }, () => {
    const started = performance.now();
    spawnSync(process.execPath, args, { encoding: "utf8" });
    return Math.round(performance.now() - started);
  });
}

interface WholeFigures {
  wallMs: number;
  /** User and system CPU of the whole process, from GNU time. */
  cpuMs?: number;
  peakRssMiB?: number;
  requests: number;
  exitCode: number | null;
  /** Where the wall time goes: before the run starts (node, modules, schemas, the reference, preflight), the run (report.json's durationMs), after it (coverage, reports, exit). */
  startMs: number;
  runMs: number;
  afterMs: number;
}

/**
 * The wait as a person has it: `conformance --reference --allow-writes` as a process, start to
 * exit, discovery, the served document, coverage, cleanup and every report included; peak RSS
 * and CPU from GNU time. The report's start and duration split the wall time.
 */
function wholeProcess(): WholeFigures {
  const out = join(packageRoot, "bench", "process-reports");
  const args = [
    join(packageRoot, "dist", "cli", "conformance.js"),
    "--reference",
    "--allow-writes",
    "--seed",
    "1000",
    "--quiet",
    "--reporter",
    "console,json,junit,html,ctrf",
    "--out",
    out,
  ];
  const timed = existsSync("/usr/bin/time");
  const spawned = Date.now();
  const started = performance.now();
  const res = timed
    ? spawnSync("/usr/bin/time", ["-f", "MAXRSS %M CPU %U %S", process.execPath, ...args], { encoding: "utf8", maxBuffer: 64 << 20 })
    : spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 64 << 20 });
  const wallMs = Math.round(performance.now() - started);
  const rss = /MAXRSS (\d+)/.exec(res.stderr ?? "")?.[1];
  const cpu = /CPU ([\d.]+) ([\d.]+)/.exec(res.stderr ?? "");
  const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
  const startMs = Date.parse(report.startedAt) - spawned;
  return {
    wallMs,
    cpuMs: cpu ? Math.round((Number(cpu[1]) + Number(cpu[2])) * 1000) : undefined,
    peakRssMiB: rss ? Math.round(Number(rss) / 1024) : undefined,
    requests: report.summary.requests,
    exitCode: res.status,
    startMs,
    runMs: report.durationMs,
    afterMs: wallMs - startMs - report.durationMs,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const childKind = arg("--child");
  if (childKind) {
    const s = scenarios.find((x) => x.name === childKind);
    console.log(JSON.stringify(s ? await runScenario(s) : await undiciLoop(Number(arg("--requests")) || UNDICI_REQUESTS)));
    return;
  }
  const repeat = Number(arg("--repeat")) || 1;
  const only = arg("--only");
  const file = join(packageRoot, "bench", "results.json");
  // --only measures one scenario again and keeps the others' figures.
  const results: Record<string, unknown> = only && existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const rows: string[] = ["| measure | result | target |", "|---|---|---|"];
  for (const s of scenarios.filter((x) => !only || x.name === only)) {
    const runs: RunFigures[] = Array.from({ length: repeat }, () => child(s.name));
    const wall = median(runs.map((r) => r.wallMs));
    const last = runs.at(-1)!;
    results[s.name] = { what: s.what, targetMs: s.targetMs, ...last, wallMsMedian: wall, wallMs: runs.map((r) => r.wallMs) };
    console.log(
      `${s.what}: ${wall} ms (${runs.map((r) => r.wallMs).join(", ")}), CPU ${last.cpuMs} ms; ${last.checkRequests} check requests, ${last.allRequests} in all (${last.requestsPerSecond}/s); peak RSS ${last.peakRssMiB} MiB; ${JSON.stringify(last.summary)}`,
    );
    for (const p of last.notPassed) console.log(`  ${p}`);
    if (s.latencyMs) {
      // The same run's own figure: its wall time against the chain no concurrency could overlap.
      const toChain = Number((wall / last.chain.ms).toFixed(2));
      const toPath = Number((wall / last.path.ms).toFixed(2));
      results[s.name] = { ...(results[s.name] as object), wallToChain: toChain, wallToChainTarget: CHAIN_TARGET, wallToPath: toPath };
      console.log(
        `  longest chain: ${last.chain.checkId}, ${last.chain.requests} requests one after another, ${last.chain.ms} ms; run/chain ${toChain} (target <= ${CHAIN_TARGET})`,
      );
      console.log(
        `  longest chain through checks that must follow one another: ${last.path.checks.length} checks (${last.path.checks.slice(0, 3).join(", ")}, ... ${last.path.checks.at(-1)}), ${last.path.requests} requests, ${last.path.ms} ms; run/path ${toPath}`,
      );
      rows.push(
        `| ${s.what}: run / its longest chain through checks that must follow one another (${last.path.checks.length} checks, ${last.path.requests} requests) | ${(wall / 1000).toFixed(1)} s / ${(last.path.ms / 1000).toFixed(1)} s = ${toPath} | |`,
      );
      rows.push(
        `| ${s.what}: run / its longest chain (${last.chain.checkId}, ${last.chain.requests} requests) | ${(wall / 1000).toFixed(1)} s / ${(last.chain.ms / 1000).toFixed(1)} s = ${toChain} | <= ${CHAIN_TARGET} |`,
      );
    }
    rows.push(
      `| ${s.what} | ${(wall / 1000).toFixed(1)} s (CPU ${(last.cpuMs / 1000).toFixed(1)} s), ${last.allRequests} requests, peak RSS ${last.peakRssMiB} MiB | ${s.targetMs ? `< ${s.targetMs / 1000} s` : ""}${s.name === "loopback-c8" ? `, < ${RSS_TARGET_MIB} MiB` : ""} |`,
    );
  }
  if (!only || only === "undici") {
    const loop = child("undici");
    results.undici = loop;
    const suite = results["loopback-c1"] as RunFigures | undefined;
    // Both rates are of requests one at a time: the suite's at --concurrency 1.
    const ratio = suite ? Number((suite.requestsPerSecond / loop.requestsPerSecond).toFixed(2)) : undefined;
    results.suiteToUndiciRatio = ratio;
    console.log(
      `raw undici loop: ${loop.requestsPerSecond} requests/s; the suite at --concurrency 1: ${suite?.requestsPerSecond ?? "?"}/s (ratio ${ratio ?? "?"})`,
    );
    rows.push(
      `| raw undici loop (one at a time) | ${loop.requestsPerSecond} requests/s; suite at --concurrency 1: ${suite?.requestsPerSecond ?? "?"}/s (ratio ${ratio ?? "?"}) | |`,
    );
  }
  if (!only || only === "process") {
    // Measured side by side, in pairs (the in-process run, then the whole process, then the floor
    // for as many requests): ratios hold across machines and a pair shares the machine's load.
    const pairs = Array.from({ length: Math.max(repeat, PROCESS_PAIRS) }, () => {
      const inProcess = child("loopback-c8") as RunFigures;
      const whole = wholeProcess();
      const floor = child("undici", "--requests", String(inProcess.allRequests)) as {
        requests: number;
        wallMs: number;
        cpuMs: number;
        requestsPerSecond: number;
      };
      return { inProcess, whole, floor };
    });
    const mid = (pick: (p: (typeof pairs)[number]) => number) => median(pairs.map(pick));
    const whole = {
      wallMs: mid((p) => p.whole.wallMs),
      cpuMs: mid((p) => p.whole.cpuMs ?? 0),
      peakRssMiB: Math.max(...pairs.map((p) => p.whole.peakRssMiB ?? 0)),
    };
    const inProcess = { wallMs: mid((p) => p.inProcess.wallMs), cpuMs: mid((p) => p.inProcess.cpuMs) };
    const floorMs = mid((p) => p.floor.wallMs);
    const floorCpuMs = mid((p) => p.floor.cpuMs);
    const split = { startMs: mid((p) => p.whole.startMs), runMs: mid((p) => p.whole.runMs), afterMs: mid((p) => p.whole.afterMs) };
    const ratios = {
      wholeToFloor: Number((whole.wallMs / floorMs).toFixed(2)),
      // The same in CPU (the floor's loop and its server, against the whole process): what the load does not move.
      wholeToFloorCpu: Number((whole.cpuMs / floorCpuMs).toFixed(2)),
      wholeToInProcess: Number((whole.wallMs / inProcess.wallMs).toFixed(2)),
      wholeToInProcessCpu: Number((whole.cpuMs / inProcess.cpuMs).toFixed(2)),
    };
    results.process = {
      pairs,
      medians: { whole, inProcess, floorMs, floorCpuMs, floorRequests: pairs[0].floor.requests, split },
      ratios,
      targets: { wholeToFloor: 1, wholeToInProcess: 1.1, peakRssMiB: RSS_TARGET_MIB },
    };
    for (const p of pairs)
      console.log(
        `pair: in-process ${p.inProcess.wallMs} ms (CPU ${p.inProcess.cpuMs}); whole ${p.whole.wallMs} ms (CPU ${p.whole.cpuMs ?? "?"}, start ${p.whole.startMs}, run ${p.whole.runMs}, after ${p.whole.afterMs}; peak RSS ${p.whole.peakRssMiB ?? "?"} MiB, exit ${p.whole.exitCode}); floor ${p.floor.requests} requests one at a time ${p.floor.wallMs} ms (CPU ${p.floor.cpuMs})`,
      );
    console.log(
      `medians: whole ${whole.wallMs} ms, in-process ${inProcess.wallMs} ms, floor ${floorMs} ms; whole/floor ${ratios.wholeToFloor} (target <= 1; CPU ${ratios.wholeToFloorCpu}), whole/in-process ${ratios.wholeToInProcess} (target <= 1.1; CPU ${ratios.wholeToInProcessCpu}); the whole process's wall: start ${split.startMs} ms, run ${split.runMs} ms, after ${split.afterMs} ms`,
    );
    rows.push(
      `| whole process / raw floor (${pairs[0].floor.requests} requests one at a time) | ${(whole.wallMs / 1000).toFixed(1)} s / ${(floorMs / 1000).toFixed(1)} s = ${ratios.wholeToFloor} (CPU ${(whole.cpuMs / 1000).toFixed(1)} s / ${(floorCpuMs / 1000).toFixed(1)} s = ${ratios.wholeToFloorCpu}) | <= 1 |`,
      `| whole process / in-process run | ${(whole.wallMs / 1000).toFixed(1)} s / ${(inProcess.wallMs / 1000).toFixed(1)} s = ${ratios.wholeToInProcess} (CPU ${(whole.cpuMs / 1000).toFixed(1)} s / ${(inProcess.cpuMs / 1000).toFixed(1)} s = ${ratios.wholeToInProcessCpu}) | <= 1.1 |`,
      `| the whole process's wall: start / run / after | ${split.startMs} / ${split.runMs} / ${split.afterMs} ms | |`,
      `| whole process peak RSS | ${whole.peakRssMiB} MiB | < ${RSS_TARGET_MIB} MiB |`,
    );
  }
  const help = wallMs([join(packageRoot, "dist", "cli", "conformance.js"), "--help"], 5);
  const bare = wallMs(["-e", "0"], 5);
  results.help = { wallMs: help, wallMsMedian: median(help), bareNodeMsMedian: median(bare), targetMs: HELP_TARGET_MS };
  console.log(`--help: ${median(help)} ms (${help.join(", ")}); bare node: ${median(bare)} ms`);
  rows.push(`| \`--help\` wall time | ${median(help)} ms (bare \`node -e 0\`: ${median(bare)} ms) | < ${HELP_TARGET_MS} ms |`);
  const machine = { cpus: cpus().length, loadavg: loadavg().map((l) => Number(l.toFixed(2))), node: process.version, at: new Date().toISOString() };
  mkdirSync(join(packageRoot, "bench"), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...results, machine, repeat }, null, 2) + "\n");
  console.log(`\nmachine: ${machine.cpus} cores, load ${machine.loadavg.join(" ")}, Node ${machine.node}; written to bench/results.json\n`);
  console.log(rows.join("\n"));
}

await main();
