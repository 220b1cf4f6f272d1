import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { isDeepStrictEqual } from "node:util";
import type { Check } from "../core/check/check.js";
import { runChecks } from "../core/run/runner.js";
import type { RunOutcome } from "../core/run/result.js";
import type { Exchange } from "../core/model/exchange.js";
import { Schemas } from "../core/api/schemas.js";
import type { RunSettings } from "../core/api/settings.js";
import { ENV_VAR_POOL, TEMPLATE_VARIABLE_POOL } from "../core/api/fixed-names.js";
import { startReference, type StartOptions } from "../reference/server.js";
import { snapshotOf, type StateSnapshot } from "../reference/state-snapshot.js";
import type { Store } from "../reference/store.js";
import { settingsFor } from "./reference-run.js";

/**
 * A run against a reference held in this process, seen from the server's side: the state of every
 * collection before and after, and the methods that reached it (counted by a proxy in front of
 * it, not by the client that sent them).
 */

export interface LedgerRun {
  outcome: RunOutcome;
  before: StateSnapshot;
  after: StateSnapshot;
  /** Requests that reached the server, by method. */
  methods: Record<string, number>;
}

/** A pass-through proxy that counts the methods of what it forwards. */
export async function countingProxy(
  target: string,
  onForward?: (method: string, path: string) => void,
  onAnswered?: (method: string, path: string, status: number) => void,
): Promise<{ url: string; methods: Record<string, number>; close: () => Promise<void> }> {
  const methods: Record<string, number> = {};
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    methods[req.method ?? "?"] = (methods[req.method ?? "?"] ?? 0) + 1;
    onForward?.(req.method ?? "?", req.url ?? "");
    const out = request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      onAnswered?.(req.method ?? "?", req.url ?? "", answer.statusCode ?? 502);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, methods, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

let schemas: Promise<Schemas> | undefined;

/**
 * Runs `checks` against a fresh reference (or `runs` times in a row against the same one, each with
 * its own seed); `stopAfterMs` aborts the run that long after it starts (Ctrl-C), `stopAt` as the
 * first request it holds reaches the server. Every request seen goes to `onForward`.
 */
export async function ledgerRuns(
  checks: Check[],
  opts: {
    start?: StartOptions;
    settings?: Partial<RunSettings>;
    runs?: number;
    stopAfterMs?: number;
    stopAt?: (method: string, path: string) => boolean;
    onForward?: (method: string, path: string) => void;
    onAnswered?: (method: string, path: string, status: number) => void;
    /** Every exchange as the run recorded it, with the check that sent it. */
    onExchange?: (exchange: Exchange, checkId?: string) => void;
    prepare?: (store: Store) => void;
  } = {},
): Promise<LedgerRun[]> {
  schemas ??= Schemas.load();
  const ref = await startReference(opts.start ?? {});
  opts.prepare?.(ref.app.store);
  let stop = new AbortController();
  const proxy = await countingProxy(
    ref.url,
    (method, path) => {
      opts.onForward?.(method, path);
      if (opts.stopAt?.(method, path)) stop.abort();
    },
    opts.onAnswered,
  );
  const out: LedgerRun[] = [];
  try {
    for (let i = 0; i < (opts.runs ?? 1); i++) {
      for (const k of Object.keys(proxy.methods)) delete proxy.methods[k];
      const before = snapshotOf(ref.app.store);
      stop = new AbortController();
      const timer = opts.stopAfterMs === undefined ? undefined : setTimeout(() => stop.abort(), opts.stopAfterMs);
      const settings: RunSettings = { ...settingsFor(ref, { runs: 5, seed: 1000 + i, concurrency: 4 }), ...opts.settings, baseUrl: proxy.url };
      const outcome = await runChecks(checks, settings, await schemas, { stop: stop.signal, onExchange: opts.onExchange });
      clearTimeout(timer);
      out.push({ outcome, before, after: snapshotOf(ref.app.store), methods: { ...proxy.methods } });
    }
  } finally {
    await proxy.close();
    await ref.close();
  }
  return out;
}

/** What a read of an item records about its reader (views), not a change of the item. */
const comparable = ({ viewHistory, updatedAt, ...rest }: any) => rest;

/** How the state after a run differs from before, in the terms of the rule "touch only what it made, remove all of it". */
export function differences(run: LedgerRun): {
  preexistingDeleted: string[];
  preexistingChanged: string[];
  madeAndLeft: string[];
  unreportedLeft: string[];
  otherChanges: string[];
  envVarsAdded: string[];
} {
  const before = new Map(run.before.items.map((i: any) => [i.id, i]));
  const after = new Map(run.after.items.map((i: any) => [i.id, i]));
  const label = (i: any) => `${i.type} ${i.id} ${JSON.stringify(i.name)} (deployment ${i.deploymentId})`;
  const preexistingDeleted = [...before.values()].filter((i: any) => !after.has(i.id)).map(label);
  const preexistingChanged = [...before.values()]
    .filter((i: any) => after.has(i.id) && !isDeepStrictEqual(comparable(i), comparable(after.get(i.id))))
    .map(label);
  const madeAndLeft = [...after.values()].filter((i: any) => !before.has(i.id)).map(label);
  const reported = run.outcome.leftovers.join("\n");
  const unreportedLeft = [...after.values()].filter((i: any) => !before.has(i.id) && !reported.includes(` ${i.id} `)).map(label);
  const otherChanges: string[] = [];
  const usersBefore = run.before.users as any[];
  for (const u of run.after.users as any[])
    if (!usersBefore.some((b) => isDeepStrictEqual(b, u))) otherChanges.push(`user ${u.id} ${u.email}${reported.includes(u.email) ? " (reported)" : ""}`);
  for (const u of usersBefore)
    if (!(run.after.users as any[]).some((a) => isDeepStrictEqual(a, u))) otherChanges.push(`user ${u.id} ${u.email} deleted or changed`);
  if (!isDeepStrictEqual(run.before.e14, run.after.e14)) otherChanges.push(...e14Differences(run.before.e14 as any, run.after.e14 as any));
  const envVarsAdded: string[] = [];
  for (const d of run.after.deployments) {
    const was = run.before.deployments.find((b) => b.id === d.id)!;
    if (!isDeepStrictEqual(comparableDeployment(d, was), comparableDeployment(was, was))) otherChanges.push(`deployment ${d.id}`);
    const names = new Set((was.envVars as any[]).map((v) => v.name));
    envVarsAdded.push(...(d.envVars as any[]).map((v) => v.name).filter((n) => !names.has(n)));
    const lost = (was.envVars as any[]).filter((v) => !ENV_VAR_POOL.includes(v.name) && !(d.envVars as any[]).some((x) => isDeepStrictEqual(x, v)));
    if (lost.length) otherChanges.push(`deployment ${d.id} variables ${lost.map((v) => v.name).join(", ")}`);
  }
  return { preexistingDeleted, preexistingChanged, madeAndLeft, unreportedLeft, otherChanges, envVarsAdded };
}

/**
 * The E14 families that differ. A dbt sync the run started is history the API keeps (it can be
 * cancelled, not deleted): jobs added after the run's start are left out, those before must not move.
 */
function e14Differences(before: Record<string, any>, after: Record<string, any>): string[] {
  const known = new Set((before.dbtJobs as any[]).map((j) => j.id));
  const kept: Record<string, any> = { ...after, dbtJobs: (after.dbtJobs as any[]).filter((j) => known.has(j.id)) };
  const entries = (v: any) => (Array.isArray(v) ? v.map((x) => JSON.stringify(x)) : [JSON.stringify(v)]);
  return Object.keys({ ...before, ...kept })
    .filter((k) => !isDeepStrictEqual(before[k], kept[k]))
    .map(
      (k) =>
        `e14.${k}: ${entries(before[k])
          .filter((x) => !entries(kept[k]).includes(x))
          .join(" ")
          .slice(0, 400)} -> ${entries(kept[k])
          .filter((x) => !entries(before[k]).includes(x))
          .join(" ")
          .slice(0, 400)}`,
    );
}

/**
 * A deployment as the comparison reads it: its env vars apart (judged by name above), and its
 * template variables without the tool's fixed ones it did not hold before, which a run may add and
 * leave where a server takes no removal (the write plan announces them: TEMPLATE_VARIABLE_POOL).
 */
function comparableDeployment(d: StateSnapshot["deployments"][number], was: StateSnapshot["deployments"][number]) {
  const held = new Set(Object.keys((was.settings as any)?.templateVariables ?? {}));
  const settings = d.settings as any;
  const tv = settings?.templateVariables;
  const kept = tv && Object.fromEntries(Object.entries(tv).filter(([k]) => held.has(k) || !TEMPLATE_VARIABLE_POOL.includes(k)));
  return { ...d, envVars: undefined, settings: tv ? { ...settings, templateVariables: kept } : settings };
}

/** The names of the variables every deployment holds. */
export const envVarNames = (s: StateSnapshot) => s.deployments.map((d) => ({ id: d.id, names: (d.envVars as any[]).map((v) => v.name).sort() }));
