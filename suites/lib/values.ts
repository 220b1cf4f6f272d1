/** A JSON object (not null, not an array): what a record, a body or a settings value must be before its fields are read. */
export const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A record without its timestamps (`…At`: a read may stamp lastViewedAt): what a refused write must leave as it was. */
export const withoutTimestamps = (record: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([k]) => !/At$/.test(k)));

/**
 * A value's JSON with every object's keys sorted: the same record serialized in any key order (a
 * server's hash map, Perl's randomized one) is one key for sets and sorting.
 */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`)
      .join(",")}}`;
  return JSON.stringify(v) ?? "null";
}

/**
 * Two values as far as both show them: at any depth, an object key that either leaves out or shows as null is left out
 * of both. A server may show an optional field ("null or absent", DashboardConfig's) in one answer and not in another;
 * what both show must still agree. Arrays are compared item by item, their lengths kept.
 */
export function asBothShow(a: unknown, b: unknown): [unknown, unknown] {
  if (Array.isArray(a) && Array.isArray(b)) {
    const pairs = a.map((x, i) => (i < b.length ? asBothShow(x, b[i]) : [x, undefined]));
    return [pairs.map((p) => p[0]), [...pairs.map((p) => p[1]).slice(0, b.length), ...b.slice(a.length)]];
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a).filter((k) => a[k] !== null && b[k] !== null && k in b);
    const pairs = keys.map((k) => [k, asBothShow(a[k], b[k])] as const);
    return [Object.fromEntries(pairs.map(([k, p]) => [k, p[0]])), Object.fromEntries(pairs.map(([k, p]) => [k, p[1]]))];
  }
  return [a, b];
}
