import fc from "fast-check";

/** Cases searched for one case of each place, at a fixed seed: the same places are sent whatever the run's seed. */
const SEARCHED_CASES = 100;

/** A place of a body, the items of an array as one place: `/widgets/3/config` is `/widgets/*\/config`. */
export const placeOf = (at: string): string => at.replace(/\/\d+(?=\/|$)/g, "/*");

/**
 * One case of each key `keyOf` gives (a kind of break at a place; undefined leaves a case out) among
 * an arbitrary's cases drawn at a fixed seed, the shallowest places first, at most `cap`: sent on
 * every run, beside what the run's seed draws, so that a break a server lets through shows at every
 * seed. `better(held, c)`: whether `c` should stand for its key instead of the one held.
 */
export function onePerPlace<T extends { at: string }>(
  cases: fc.Arbitrary<T>,
  o: { keyOf: (c: T) => string | undefined; cap: number; better?: (held: T, c: T) => boolean },
): T[] {
  const byKey = new Map<string, T>();
  for (const c of fc.sample(cases, { seed: 0, numRuns: SEARCHED_CASES })) {
    const key = o.keyOf(c);
    if (key === undefined) continue;
    const held = byKey.get(key);
    if (!held || o.better?.(held, c)) byKey.set(key, c);
  }
  const depth = (c: T) => placeOf(c.at).split("/").length;
  return [...byKey.values()].sort((a, b) => depth(a) - depth(b)).slice(0, o.cap);
}
