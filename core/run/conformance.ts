import type { Check } from "../check/check.js";
import { belowMinimum, documentSections } from "./document-sections.js";
import { baselineOutcome, type GateOptions, gateExitCode, judgingOf, notRun } from "./gate.js";
import { ExchangeTally } from "../served/operation-coverage.js";
import { buildReport, labelled, type Report, type Selection } from "./report.js";
import { summarise, verifiedLine, verifiedPercent } from "./verdict.js";
import type { RunOutcome } from "./result.js";
import { type RunHooks, runChecks } from "./runner.js";
import { Schemas } from "../api/schemas.js";
import type { HttpClient } from "../transport/http.js";
import { openDoor } from "./door.js";
import { grantedOptIns, type RunSettings } from "../api/settings.js";
import { failsTheRun, leftoversSaid } from "../ledger/leftovers.js";

/** What a run of the suite is: the checks chosen, the settings, how it is judged, and what the report says of it. */
export interface Conformance {
  checks: Check[];
  settings: RunSettings;
  gate: GateOptions;
  tool: { name: string; version: string };
  selection?: Selection;
  shard?: Report["shard"];
  /** The baseline's file, as the report names it. */
  baselineFile?: string;
  /** --min-coverage: fewer of the served document's operations exercised fails the run. */
  minCoverage?: number;
  /** --min-class-coverage: the least share of the input classes (core/api/input-domain.ts) the run must judge, in percent. */
  minClassCoverage?: number;
  /** --min-verified: fewer of the run's MUST rules verified (in percent) fails the run: a green gate says how much it checked. */
  minVerified?: number;
  hooks?: RunHooks;
  /** What the caller makes of the outcome before it is judged (--fail-fast names the checks it stopped). */
  settle?: (outcome: RunOutcome) => RunOutcome;
  /** The run's one door (core/run/door.ts), when the caller opened it before (preflight and the plan went through it); else one is opened here. */
  door?: HttpClient;
}

/**
 * The one entry of a run, for the CLI, replay and the bench: the checks run, the results judged
 * (core/run/verdict.ts), the report built with its document sections, and the gate's exit code in
 * `report.gate`. The caller parses flags before and prints after; nothing here prints.
 */
export async function runConformance(run: Conformance): Promise<Report & { gate: NonNullable<Report["gate"]> }> {
  const { settings } = run;
  const schemas = await Schemas.load();
  const tally = new ExchangeTally();
  const hooks: RunHooks = {
    ...run.hooks,
    onExchange: (x, checkId) => {
      tally.observe(x, checkId);
      run.hooks?.onExchange?.(x, checkId);
    },
  };
  const door = run.door ?? openDoor(settings);
  try {
    return await conformanceThrough(door, run, schemas, tally, hooks);
  } finally {
    if (!run.door) await door.close();
  }
}

async function conformanceThrough(
  door: HttpClient,
  run: Conformance,
  schemas: Schemas,
  tally: ExchangeTally,
  hooks: RunHooks,
): Promise<Report & { gate: NonNullable<Report["gate"]> }> {
  const { settings } = run;
  const ran = await runChecks(run.checks, settings, schemas, hooks, door);
  const outcome = run.settle ? run.settle(ran) : ran;
  const report = buildReport(outcome, {
    ...run.tool,
    baseUrl: settings.baseUrl,
    seed: settings.seed,
    runs: settings.runs,
    writes: settings.writes,
    optIns: grantedOptIns(settings),
    selection: run.selection,
    shard: run.shard,
  });
  if (!outcome.interrupted) Object.assign(report, await documentSections(door, settings, tally, schemas.document, ran.servedDocument));
  const classesBelow =
    run.minClassCoverage !== undefined && report.inputClasses && report.inputClasses.percent < run.minClassCoverage
      ? `input class coverage ${report.inputClasses.percent}% (${report.inputClasses.judged} of ${report.inputClasses.measurable} classes judged) is below --min-class-coverage ${run.minClassCoverage}%`
      : undefined;
  const coverageBelow =
    [report.operations ? belowMinimum(report.operations, run.minCoverage) : undefined, classesBelow].filter(Boolean).join("; ") || undefined;
  // A replay that did not run its check proves nothing: neither a pass nor a verdict on the server.
  const replayNotRun = settings.replay ? notRun(report.results) : undefined;
  const refused = door.refused.length ? door.refused.map((r) => `${r.caller}: ${r.line}`) : undefined;
  return judged(report, run.gate, {
    interrupted: outcome.interrupted,
    replayNotRun,
    coverageBelow,
    baselineFile: run.baselineFile,
    minVerified: run.minVerified,
    refused,
  });
}

/** A report judged by the gate: its exit code and what the baseline made of it (a run, or shards merged). */
export function judged(
  report: Report,
  gate: GateOptions,
  run: { interrupted?: boolean; replayNotRun?: string; coverageBelow?: string; baselineFile?: string; minVerified?: number; refused?: string[] },
): Report & { gate: NonNullable<Report["gate"]> } {
  // The counts and each result's word follow the judging: a SHOULD finding or a known failure is not "failed" in a run that passes.
  const judging = judgingOf(gate);
  report.summary = summarise(report.results, judging);
  report.results = labelled(report.results, judging);
  const m = report.summary.mustRules;
  const verifiedBelow =
    run.minVerified !== undefined && verifiedPercent(m) < run.minVerified
      ? `${verifiedLine(m)}, below --min-verified ${run.minVerified} %: allow more writes or give the tokens and fixtures the skips name`
      : undefined;
  const failing = report.leftovers.filter(failsTheRun);
  const leftBehind = failing.length ? leftoversSaid(failing) : undefined;
  const exitCode = gateExitCode(report.results, gate, { ...run, verifiedBelow, leftBehind });
  const baseline = gate.baseline ? { baseline: baselineOutcome(report.results, gate.baseline, run.baselineFile) } : {};
  return Object.assign(report, {
    gate: {
      strict: gate.strict,
      failOnFixed: gate.failOnFixed,
      exitCode,
      ...baseline,
      ...(run.replayNotRun ? { notRun: run.replayNotRun } : {}),
      ...(run.coverageBelow ? { coverageBelow: run.coverageBelow } : {}),
      ...(run.refused ? { refused: run.refused } : {}),
      ...(verifiedBelow ? { verifiedBelow } : {}),
      ...(leftBehind ? { leftBehind } : {}),
    },
  });
}
