import { resolve } from "node:path";
import type { GateOptions } from "../../core/run/gate.js";
import { selectChecks } from "../../core/run/select.js";
import { SHARD_NEEDS_SEED, shardOf } from "../../core/run/shard.js";
import { type ConfigFile, readConfigFile, type RunSettings, UsageError } from "../../core/api/settings.js";
import { prepareOutDir } from "../out-dir.js";
import { fromConfig, selectLevel } from "../run-options.js";
import { checkRunOptions, settingsFrom } from "../run-settings.js";
import { configOf, pkg, REPORTERS, type RunCliOptions, STOP_SIGNALS } from "../cli-shared.js";

/** A run of the suite, as the default command and replay start it: options read, checks chosen, run, printed, reports written. */
export async function runCommand(
  opts: RunCliOptions,
  out: (l: string) => void,
  progress: ((l: string) => void) | undefined,
  replay?: RunSettings["replay"],
): Promise<number> {
  checkRunOptions(opts);
  opts = { ...opts, config: configOf(opts) };
  if (opts.fault && !opts.reference) throw new UsageError("--fault needs --reference");
  const file: ConfigFile = opts.config ? readConfigFile(resolve(opts.config)) : {};
  const { reporter: reporterNames, out: outDir, baseline: baselineFile } = fromConfig(opts, file, opts.config, REPORTERS);
  // Loaded here, not at the top: `--help` and usage errors answer without them.
  const { catalogue } = await import("../../suites/index.js");
  if (opts.shard && opts.seed === undefined && file.seed === undefined) throw new UsageError(SHARD_NEEDS_SEED);
  const selected = selectLevel(selectChecks(catalogue, opts.group, opts.check, opts.excludeCheck), opts.level);
  const checks = opts.shard ? shardOf(selected, opts.shard.index, opts.shard.count, { separateServers: opts.reference }) : selected;
  const { readBaseline } = await import("../../core/run/gate.js");
  const baseline = baselineFile ? readBaseline(baselineFile) : undefined;
  const { runConformance } = await import("../../core/run/conformance.js");
  const { preflight } = await import("../preflight.js");
  const { baselineLines, ConsoleReporter, summaryLine, verdictLine } = await import("../../core/reporters/console.js");
  const { publishToGitHub } = await import("../../core/reporters/github.js");
  const { HarRecorder } = await import("../../core/reporters/har.js");
  const { reportsLine, writeReports } = await import("../../core/reporters/write.js");
  const { DeploymentUpdateCounter } = await import("../../core/api/deployment-updates.js");
  const { writePlan } = await import("../../core/run/write-plan.js");
  const { coverageLine, operationLines } = await import("../../core/served/operation-coverage.js");
  const { driftLines } = await import("../../core/served/drift.js");

  let reference: { close(): Promise<void>; config(): Record<string, any> } | undefined;
  if (opts.reference) {
    const { startReference } = await import("../../reference/server.js");
    reference = await startReference({ faults: opts.fault ?? [] }).catch((e: Error) => {
      throw new UsageError(e.message);
    });
  }
  let door: import("../../core/transport/http.js").HttpClient | undefined;
  const stop = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
    process.stderr.write("\nconformance: interrupted; stopping the running check and cleaning up (again to abort)\n");
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  try {
    const settings = { ...settingsFrom(opts, file, reference?.config()), replay, wholeBodies: reporterNames.includes("har") };
    const reporters = new Set(reporterNames);
    // A folder named with --out (or the config) is proven writable at once, even where only the console writes.
    if ([...reporters].some((r) => r !== "console") || opts.out !== undefined || file.out !== undefined) prepareOutDir(outDir);
    // The run's one door: every request of every phase goes through it, and the HAR records it there.
    door = (await import("../../core/run/door.js")).openDoor(settings);
    const har = reporters.has("har") ? new HarRecorder() : undefined;
    const updates = new DeploymentUpdateCounter();
    door.watch((x) => (har?.record(x), updates.observe(x)));
    await preflight(settings, door);
    const plan = await writePlan(checks, settings, door);
    // The bundled reference's state is thrown away: its plan is one line unless asked for.
    const shown =
      opts.reference && !opts.verbose
        ? [`${plan[0].replace(/ \(methods sent[^)]*\)/, "").replace(/:$/, "")} (the bundled reference, thrown away after; --verbose: the full write plan)`]
        : plan;
    for (const line of shown) process.stderr.write(line + "\n");
    const gate: GateOptions = { strict: settings.strict, baseline, failOnFixed: opts.failOnFixed };
    const console = reporters.has("console") ? new ConsoleReporter(out, { progress, quiet: opts.quiet, verbose: opts.verbose, gate }) : undefined;
    console?.start(settings.seed, settings.baseUrl, checks);
    if (opts.failFast && opts.maxFailures !== undefined && opts.maxFailures !== 1) throw new UsageError("--fail-fast is --max-failures 1: give one of them");
    const failFast = opts.failFast || opts.maxFailures ? new (await import("../fail-fast.js")).FailFast(gate, opts.maxFailures ?? 1) : undefined;
    const report = await runConformance({
      checks,
      settings,
      gate,
      tool: pkg,
      selection: {
        groups: opts.group,
        checks: opts.check,
        ...(opts.excludeCheck ? { excluded: opts.excludeCheck } : {}),
        selected: selected.length,
        ...(opts.shard && opts.reference ? { separateServers: true } : {}),
      },
      shard: opts.shard,
      baselineFile,
      minCoverage: opts.minCoverage,
      minClassCoverage: opts.minClassCoverage,
      minVerified: opts.minVerified ?? file.minVerified,
      hooks: {
        onStart: (c) => console?.starting(c),
        onFinish: (r) => console?.finished(r),
        onResult: (r) => (failFast?.observe(r), console?.result(r)),
        shouldStop: failFast?.shouldStop,
        stop: stop.signal,
      },
      door,
      settle: failFast ? (ran) => failFast.settle(ran, stop.signal.aborted) : undefined,
    });
    // The progress line is cleared before anything else prints.
    progress?.("");
    // A re-run of one failure starts the reference again, not the address this one happened to listen on.
    if (opts.reference) report.target.reference = opts.fault?.length ? { faults: opts.fault } : {};
    const { exitCode, notRun: unrun, coverageBelow, verifiedBelow, leftBehind } = report.gate;
    // The summary is shown even when the reports cannot be written (a disk filled up during the run).
    let files: string[] = [];
    let unwritten: NodeJS.ErrnoException | undefined;
    try {
      files = await writeReports(report, reporters, outDir, gate, har);
    } catch (e) {
      unwritten = e as NodeJS.ErrnoException;
    }
    if (settings.writes && !opts.quiet) out(updates.line());
    if (report.operations && console && !opts.quiet)
      for (const line of [coverageLine(report.operations), ...(opts.verbose ? operationLines(report.operations) : [])]) out(line);
    if (report.drift && console && !opts.quiet) out(opts.verbose ? driftLines(report.drift).join("\n") : driftLines(report.drift)[0]);
    if (console) console.finish(report, exitCode, unrun);
    else for (const line of [summaryLine(report), ...baselineLines(report), unrun ? `conformance: ${unrun}` : verdictLine(report, exitCode)]) out(line);
    if (unwritten) throw new UsageError(`could not write the reports to ${outDir}: ${unwritten.code ?? unwritten.message}`);
    if (coverageBelow) out(`conformance: ${coverageBelow}`);
    if (verifiedBelow) out(`conformance: ${verifiedBelow}`);
    if (leftBehind) out(`conformance: left on the server: ${leftBehind}; each "left on the server" line above says what, and how to remove or read it`);
    publishToGitHub(report, gate, files, out);
    out(reportsLine(files));
    return exitCode;
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    await door?.close();
    await reference?.close();
  }
}
