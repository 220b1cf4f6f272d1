import type { Check } from "../check/check.js";
import { isInvariant } from "./invariants.js";
import { conflictTable } from "./schedule.js";

/** Shards draw their properties' cases from the seed: with a seed each, they would not add up to one run. */
export const SHARD_NEEDS_SEED =
  "--shard needs --seed: every shard of a run needs the same --seed (e.g. --seed 42), so that the shards add up to one run that replays";

/** `--shard i/n` with 1 <= i <= n; undefined for anything else. */
export function parseShard(value: string): { index: number; count: number } | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  return m && count >= 1 && index >= 1 && index <= count ? { index, count } : undefined;
}

/**
 * Estimated cost of a check, so that shards take similar time. Measured on a full run with writes
 * against the reference (seed 7, 100 runs): an example takes 151 ms and 4.6 requests on average,
 * a property 1,854 ms and 147 requests (its budget is 150), the model 2,518 ms.
 */
export const CHECK_COST: Record<Check["kind"], number> = { example: 1, property: 12, model: 16, invariant: 0 };

export interface ShardOptions {
  /**
   * Each shard runs against a server of its own (`--reference` starts one per job): checks of
   * different parts can never disturb each other, so only their cost decides the parts.
   */
  separateServers?: boolean;
}

/**
 * The i-th of n parts of the checks, the same for the same selection on every machine. Against
 * one shared server, checks that touch the same thing in a way that disturbs each other
 * (core/run/schedule.ts) stay in one part, so that parts run at once do not disturb each other; the
 * groups of such checks go, costliest first, to the cheapest part. Each part keeps catalogue order.
 * The invariants are in every part: each judges the traffic of its part.
 */
export function shardOf(all: Check[], index: number, count: number, opts: ShardOptions = {}): Check[] {
  // Every part watches its own traffic: the invariants go to each (conformance merge joins their verdicts).
  const checks = all.filter((c) => !isInvariant(c));
  const table = opts.separateServers ? checks.map(() => new Set<number>()) : conflictTable(checks, true);
  const component = checks.map((_, i) => i);
  const root = (i: number): number => (component[i] === i ? i : (component[i] = root(component[i])));
  table.forEach((others, i) => others.forEach((j) => (component[root(i)] = root(j))));
  const groups = new Map<number, number[]>();
  checks.forEach((_, i) => groups.set(root(i), [...(groups.get(root(i)) ?? []), i]));
  const ordered = [...groups.values()].map((members) => ({ members, weight: members.reduce((w, i) => w + CHECK_COST[checks[i].kind], 0) }));
  ordered.sort((a, b) => b.weight - a.weight || a.members[0] - b.members[0]);
  const load = Array.from({ length: count }, () => 0);
  const part = new Map<number, number>();
  for (const g of ordered) {
    const lightest = load.indexOf(Math.min(...load));
    load[lightest] += g.weight;
    for (const i of g.members) part.set(i, lightest);
  }
  const mine = new Set(checks.filter((_, i) => part.get(i) === index - 1));
  return all.filter((c) => isInvariant(c) || mine.has(c));
}
