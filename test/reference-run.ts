import type { Check } from "../core/check/check.js";
import { runChecks } from "../core/run/runner.js";
import type { RunOutcome } from "../core/run/result.js";
import { Schemas } from "../core/api/schemas.js";
import type { RunSettings } from "../core/api/settings.js";
import { startReference, type RunningReference } from "../reference/server.js";

let schemas: Promise<Schemas> | undefined;

/**
 * How long a test run waits for one answer, and for one check: guards against a hang, never a
 * bound on speed (a loaded machine answers a loopback request in seconds, and a test's outcome
 * may not depend on the load). Tests that judge a timeout set their own, small, on a server that never answers.
 */
export const HANG_GUARD = { requestMs: 60_000, checkMs: 900_000 } as const;

/** Settings for a run against a reference server, as its --write-config would give them. */
export function settingsFor(ref: RunningReference, over: Partial<RunSettings> = {}): RunSettings {
  const c = ref.config() as any;
  return {
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
    timeoutMs: HANG_GUARD.requestMs,
    checkTimeoutMs: HANG_GUARD.checkMs,
    runs: 25,
    seed: 42,
    strict: false,
    concurrency: 8,
    ...over,
  };
}

/** Starts a reference server (with faults or variants), runs the checks in-process, stops it. */
export async function runAgainstReference(
  checks: Check[],
  opts: { faults?: string[]; variants?: string[]; settings?: Partial<RunSettings>; upsertDelayMs?: number; seedShape?: "default" | "alternate" | "huge" } = {},
): Promise<RunOutcome & { ref: RunningReference }> {
  schemas ??= Schemas.load();
  const ref = await startReference({ faults: opts.faults, variants: opts.variants, upsertDelayMs: opts.upsertDelayMs, seedShape: opts.seedShape });
  try {
    const outcome = await runChecks(checks, settingsFor(ref, opts.settings), await schemas);
    return { ...outcome, ref };
  } finally {
    await ref.close();
  }
}

export function describeResults(outcome: RunOutcome): string {
  return outcome.results
    .filter((r) => r.status !== "passed")
    .map((r) => `${r.status} ${r.id}: ${r.message} | expected ${r.expected} | got ${r.got}`)
    .join("\n");
}
