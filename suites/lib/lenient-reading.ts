/**
 * Which wrongly typed values a lenient server may read as the value they spell: `"12"` for the
 * integer 12, `"true"` or `0`/`1` for a boolean, a number or boolean where a string is declared.
 * Where the spec names no status for a wrongly typed body (E3, E4, E10, E11, E12), such a reading
 * is a choice a server may make: the request is then the valid one it spells, not a broken one.
 */

type JsonType = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";

/** The types the (dereferenced) schema declares at a JSON pointer, its branches included. */
export function typesAt(schema: any, pointer: string): JsonType[] {
  let s = schema;
  for (const seg of pointer.split("/").slice(1)) {
    if (!s) return [];
    const branches = [s, ...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])];
    s = branches.map((b: any) => b?.properties?.[seg] ?? (/^\d+$|^\*$/.test(seg) ? b?.items : undefined)).find((x: any) => x !== undefined);
  }
  if (!s) return [];
  const all = [s, ...(s.anyOf ?? []), ...(s.oneOf ?? [])].flatMap((b: any) => (b?.type === undefined ? [] : Array.isArray(b.type) ? b.type : [b.type]));
  return [...new Set(all)] as JsonType[];
}

/** The value at a JSON pointer of a body. */
export function valueAt(body: unknown, pointer: string): unknown {
  let v: any = body;
  for (const seg of pointer.split("/").slice(1)) v = v === null || typeof v !== "object" ? undefined : v[seg];
  return v;
}

/** Whether `value`, of a type `types` does not allow, spells a value of one of them without loss. */
export function spellsAllowed(value: unknown, types: JsonType[]): boolean {
  const has = (t: JsonType) => types.includes(t);
  if (typeof value === "string") return ((has("integer") || has("number")) && /^-?\d+$/.test(value)) || (has("number") && /^-?\d+\.\d+$/.test(value)) || (has("boolean") && /^(true|false)$/.test(value));
  if (typeof value === "number") return has("string") || (has("boolean") && (value === 0 || value === 1));
  if (typeof value === "boolean") return has("string");
  return false;
}
