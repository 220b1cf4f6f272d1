import type { Check } from "./check.js";
import { isInvariant } from "./invariants.js";
import { conflictTable } from "./schedule.js";

/** `--shard i/n` with 1 <= i <= n; undefined for anything else. */
export function parseShard(value: string): { index: number; count: number } | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  return m && count >= 1 && index >= 1 && index <= count ? { index, count } : undefined;
}

/** Rough cost of a check, so that shards take similar time: a property makes many requests. */
const weight = (c: Check) => (c.kind === "example" ? 1 : 5);

/**
 * The i-th of n parts of the checks, the same for the same selection on every machine. Checks that
 * touch the same thing in a way that disturbs each other (core/schedule.ts) stay in one part, so
 * that parts run at once against one server do not disturb each other; the groups of such checks
 * go, heaviest first, to the lightest part. Each part keeps catalogue order. The invariants are in
 * every part: each judges the traffic of its part.
 */
export function shardOf(all: Check[], index: number, count: number): Check[] {
  // Every part watches its own traffic: the invariants go to each (conformance merge joins their verdicts).
  const checks = all.filter((c) => !isInvariant(c));
  const table = conflictTable(checks, true);
  const component = checks.map((_, i) => i);
  const root = (i: number): number => (component[i] === i ? i : (component[i] = root(component[i])));
  table.forEach((others, i) => others.forEach((j) => (component[root(i)] = root(j))));
  const groups = new Map<number, number[]>();
  checks.forEach((_, i) => groups.set(root(i), [...(groups.get(root(i)) ?? []), i]));
  const ordered = [...groups.values()].map((members) => ({ members, weight: members.reduce((w, i) => w + weight(checks[i]), 0) }));
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
