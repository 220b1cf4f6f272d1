/**
 * A sample of listed items to read one by one that holds every shape the list shows (rule 2: a
 * rule holds on every answer, and a server may answer an empty value otherwise than a full one:
 * `{}` read back as null, `[]` as absent). A shape is which fields an item has and, for each,
 * whether it is null, empty or holds something.
 */

/** The most shapes read: past it a list of very varied items is sampled, not read whole. */
const MAX_SHAPES = 20;

function valueClass(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return v.length ? "array" : "[]";
  if (typeof v === "object") return Object.keys(v as object).length ? "object" : "{}";
  if (v === "") return "''";
  return typeof v;
}

/** The item's shape, as a key: its fields sorted, each with the class of its value. */
export function shapeOf(item: unknown): string {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return valueClass(item);
  return Object.entries(item)
    .map(([k, v]) => `${k}:${valueClass(v)}`)
    .sort()
    .join(",");
}

/** The first item of each shape, in list order (at most MAX_SHAPES), then the next items until there are `atLeast`. */
export function oneOfEachShape<T>(items: T[], atLeast: number): T[] {
  const seen = new Set<string>();
  const chosen = new Set<T>();
  for (const item of items) {
    if (chosen.size >= MAX_SHAPES) break;
    const shape = shapeOf(item);
    if (!seen.has(shape)) chosen.add(item);
    seen.add(shape);
  }
  for (const item of items) {
    if (chosen.size >= atLeast) break;
    chosen.add(item);
  }
  return items.filter((item) => chosen.has(item));
}
