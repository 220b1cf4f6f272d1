import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import formatsModule from "ajv-formats";

const addFormats = ((formatsModule as any).default ?? formatsModule) as (ajv: Ajv2020) => Ajv2020;

/** A (dereferenced) JSON Schema, and what the generators read of it: types, merges, validation. */
export type Schema = Record<string, any>;
export type JsonType = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";

const TYPES: JsonType[] = ["null", "boolean", "integer", "number", "string", "array", "object"];

/**
 * A schema the generators cannot derive values from within their bounds: no value satisfies it
 * (`{"type": "integer", "oneOf": [{"type": "null"}]}`, an empty enum), its values are too rare to
 * draw, or it is too large or too deep (a recursive schema). The message names the schema, so a
 * property reports "not generated" instead of crashing or hanging.
 */
export class NotGenerated extends Error {
  constructor(
    readonly schema: string,
    readonly at: string,
    readonly why: string,
  ) {
    super(`not generated: schema ${schema}${at ? ` at ${at}` : ""}: ${why}`);
    this.name = "NotGenerated";
  }
}

/** How a schema is named in a NotGenerated message: the name the caller gave, its title, or its text. */
export function schemaLabel(s: Schema, name?: string): string {
  if (name) return name;
  if (typeof s?.title === "string") return s.title;
  let text: string;
  try {
    text = JSON.stringify(s);
  } catch {
    text = "(a recursive schema)";
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The types a schema names, or undefined when it names none (then nothing is a wrong type). */
export function declaredTypes(s: Schema): JsonType[] | undefined {
  if (s.type === undefined) return undefined;
  return Array.isArray(s.type) ? s.type : [s.type];
}

export function typesOf(s: Schema): JsonType[] {
  const declared = declaredTypes(s);
  // "number" values already include integers.
  if (declared) return declared.includes("number") ? declared.filter((t) => t !== "integer") : declared;
  if (s.properties || s.required || s.additionalProperties !== undefined) return ["object"];
  if (s.items) return ["array"];
  return TYPES;
}

/** The types a union allows, when each of its branches names its own. */
export function unionTypes(branches: Schema[]): JsonType[] | undefined {
  const each = branches.map(declaredTypes);
  return each.every((t) => t) ? [...new Set(each.flat() as JsonType[])] : undefined;
}

/** Both schemas at once, for the subset the generators read: properties merged, required and type combined. */
export function merge(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a, ...b };
  if (a.properties && b.properties) {
    out.properties = { ...a.properties };
    for (const [k, v] of Object.entries(b.properties as Record<string, Schema>)) out.properties[k] = k in a.properties ? merge(a.properties[k], v) : v;
  }
  if (a.required || b.required) out.required = [...new Set([...(a.required ?? []), ...(b.required ?? [])])];
  const ta = declaredTypes(a);
  const tb = declaredTypes(b);
  if (ta && tb) {
    const both = ta.filter((t) => tb.includes(t) || (t === "integer" && tb.includes("number")));
    for (const t of tb) if (t === "integer" && ta.includes("number") && !both.includes("integer")) both.push("integer");
    out.type = both;
  }
  return out;
}

/** An allOf's members merged into the schema that holds them: every member's rules at once, as one schema. */
export function mergedAllOf(s: Schema & { allOf: Schema[] }): Schema {
  return s.allOf.reduce(merge, without(s, "allOf"));
}

export function without(s: Schema, key: string): Schema {
  const { [key]: _, ...rest } = s;
  return rest;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function codePoints(s: string): number {
  return [...s].length;
}

const ajv = addFormats(new Ajv2020({ strict: false, allErrors: false, validateSchema: false }));
const compiled = new WeakMap<object, ValidateFunction>();

/** Whether a value satisfies the schema (JSON Schema 2020-12 with formats, as ajv reads it). */
export function conforms(s: Schema): (v: unknown) => boolean {
  let fn = compiled.get(s);
  if (!fn) {
    fn = ajv.compile(s);
    compiled.set(s, fn);
  }
  const f = fn;
  return (v) => f(v) as boolean;
}
