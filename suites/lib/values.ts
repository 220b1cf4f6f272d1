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
