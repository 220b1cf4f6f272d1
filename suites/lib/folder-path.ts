/**
 * Resources / Workbook: folderPath holds the "ancestors of the containing folder". Whether it ends
 * with the containing folder itself, and in which order it lists them (outermost or nearest first),
 * is not stated: `chain` (outermost first, the containing folder last) is met by its ids with or
 * without the last, each once, in any order; a path that misses an ancestor or adds another is not.
 */
export function holdsAncestors(shown: unknown[], chain: number[]): boolean {
  const ids = shown.map((f) => (f && typeof f === "object" ? (f as { id?: unknown }).id : undefined));
  const sorted = (xs: unknown[]) => JSON.stringify(xs.map(String).sort());
  return new Set(ids).size === ids.length && [chain, chain.slice(0, -1)].some((c) => sorted(c) === sorted(ids));
}

/** What holdsAncestors takes, for a failure's "expected". */
export const ancestorsExpected = (chain: number[]) => `the ids ${JSON.stringify(chain)} or ${JSON.stringify(chain.slice(0, -1))}, each once, in any order`;
