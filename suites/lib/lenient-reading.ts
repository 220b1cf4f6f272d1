import { conforms, type Schema } from "../../generators/index.js";

/**
 * Which wrongly typed values a lenient server may read as the value they spell: `"12"` for the
 * integer 12, `"true"` or `0`/`1` for a boolean, `true`/`false` for the number 1/0, a number or
 * boolean where a string is declared, null as an empty or zero value and `[1]` as 1 (Ajv's coercion).
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
  if (typeof value === "string")
    return (
      ((has("integer") || has("number")) && /^-?\d+$/.test(value)) ||
      (has("number") && /^-?\d+\.\d+$/.test(value)) ||
      (has("boolean") && /^(true|false)$/.test(value))
    );
  if (typeof value === "number") return has("string") || (has("boolean") && (value === 0 || value === 1));
  // A mainstream framework's lax mode (pydantic, say) reads true as 1 and false as 0.
  if (typeof value === "boolean") return has("string") || has("integer") || has("number");
  // Ajv's coercion, Fastify's default for every schema it validates (coerceTypes "array"), reads
  // null as "", 0 or false, and an array of one item as that item.
  if (value === null) return has("string") || has("integer") || has("number") || has("boolean");
  if (Array.isArray(value) && value.length === 1 && !has("array")) {
    const [only] = value;
    const scalar =
      typeof only === "string"
        ? "string"
        : typeof only === "boolean"
          ? "boolean"
          : typeof only === "number"
            ? Number.isInteger(only)
              ? "integer"
              : "number"
            : undefined;
    return scalar !== undefined && (has(scalar) || (scalar === "integer" && has("number")) || spellsAllowed(only, types));
  }
  return false;
}

/** The body without the value at a JSON pointer (a copy); the body itself where the pointer names no object's key. */
function withoutAt(body: unknown, pointer: string): unknown {
  const segs = pointer.split("/").slice(1);
  if (!segs.length) return body;
  const copy = structuredClone(body);
  const parent = valueAt(copy, `/${segs.slice(0, -1).join("/")}`.replace(/^\/$/, ""));
  if (!parent || typeof parent !== "object" || Array.isArray(parent)) return body;
  delete (parent as Record<string, unknown>)[segs.at(-1)!];
  return copy;
}

/**
 * Whether a server may read a mistyped value (an object, an array, a number, a boolean, a null
 * where the schema says otherwise) as absent: the place is an optional field, and the body without
 * it is a valid request. `{"enabled": false, "branchId": 301, "branchName": {}}` is then the toggle
 * of branch 301, `{"shared": {}}` a plain clone: the spec states no outcome for either.
 */
export function readableWithout(schema: Schema): (bad: { kind: string; at: string; body?: unknown }) => boolean {
  const accepts = conforms(schema);
  return (bad) => bad.kind === "wrong-type" && bad.at !== "" && bad.body !== undefined && accepts(withoutAt(bad.body, bad.at));
}
