import { isDeepStrictEqual } from "node:util";

/**
 * How a deprecated `data` copy differs from `items`, or undefined when it holds the same
 * entries. Compared as sets keyed by `key`: the spec calls data a copy kept for old clients,
 * and says nothing of the order its entries come in.
 */
export function copyDifference(items: unknown[], data: unknown[], key: (entry: any) => string): string | undefined {
  if (items.length !== data.length) return `data holds ${data.length} entries, items ${items.length}`;
  const byKey = new Map(items.map((i) => [key(i), i]));
  const seen = new Set<string>();
  const off: string[] = [];
  for (const d of data) {
    const k = key(d);
    if (seen.has(k)) off.push(`${k} (twice in data)`);
    else if (!byKey.has(k)) off.push(`${k} (not in items)`);
    else if (!isDeepStrictEqual(d, byKey.get(k))) off.push(`${k} (differs from its items entry)`);
    seen.add(k);
  }
  return off.length ? `entries of data: ${off.join(", ")}` : undefined;
}

/** The keys of `part` that are repeated or not among `whole`'s, or undefined when part is a subset without repeats. */
export function notASubset(part: string[], whole: string[]): string | undefined {
  const all = new Set(whole);
  const off = part.filter((k, i) => !all.has(k) || part.indexOf(k) !== i);
  return off.length ? `repeated or not in items: ${off.join(", ")}` : undefined;
}
