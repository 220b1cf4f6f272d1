import fc from "fast-check";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import formatsModule from "ajv-formats";

const addFormats = ((formatsModule as any).default ?? formatsModule) as (ajv: Ajv2020) => Ajv2020;

/**
 * Values derived from a (dereferenced) JSON Schema, in the subset the contract uses: type (or a
 * list of types), properties / required / additionalProperties, enum, const, anyOf / oneOf,
 * items / minItems / maxItems, minimum / maximum / exclusive bounds, minLength / maxLength,
 * pattern, format (date, date-time, uri) and not. `validValues` builds values that satisfy the
 * schema; `invalidValues` breaks exactly one rule of it somewhere in an otherwise valid value.
 */
export type Schema = Record<string, any>;
type JsonType = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";

export type InvalidKind =
  | "wrong-type"
  | "missing-required"
  | "out-of-range"
  | "unknown-enum"
  | "not-const"
  | "forbidden-value"
  | "too-long"
  | "too-short"
  | "pattern"
  | "format"
  | "too-many-items"
  | "too-few-items"
  | "several-branches";

export interface InvalidValue {
  value: unknown;
  kind: InvalidKind;
  /** JSON pointer of the broken place ("" is the whole value). */
  at: string;
}

export interface DeriveOptions {
  /**
   * Domain values instead of derived ones, by JSON pointer: "" is the root, "/items/*" any
   * element of `items` (or any value of a map). Invalid values still break these places too.
   */
  overrides?: Record<string, fc.Arbitrary<unknown>>;
  /** Upper bound of generated arrays and of the keys of free-form objects (default 4). */
  maxItems?: number;
  /**
   * No null as the wrong type of an optional place: a server may read an explicit null as
   * "not sent", so such a value is not reliably invalid. `optionalRoot` counts the root as one.
   */
  nullIsAbsent?: boolean;
  optionalRoot?: boolean;
}

export interface InvalidOptions extends DeriveOptions {
  /** The valid values to break (default: validValues of the schema). */
  base?: fc.Arbitrary<unknown>;
}

const TYPES: JsonType[] = ["null", "boolean", "integer", "number", "string", "array", "object"];
const DEFAULT_MAX_ITEMS = 4;
const INT_BOUND = 2 ** 31 - 1;
const NOT_A_DATE = ["2024-13-01", "2024-02-30", "2024-01-01T25:61:00Z", "yesterday", "01/02/2024", "20240101"];
const NOT_A_URI = ["not a uri", "//missing-scheme", "http://exa mple.com", ""];

/** Every value it yields satisfies the schema. */
export function validValues(schema: Schema, opts: DeriveOptions = {}): fc.Arbitrary<unknown> {
  return valid(schema, "", opts);
}

/** Every value it yields breaks the schema at one place; the rest of it stays valid. */
export function invalidValues(schema: Schema, opts: InvalidOptions = {}): fc.Arbitrary<InvalidValue> {
  const accepts = conforms(schema);
  // A change inside one branch of an anyOf/oneOf may still satisfy another branch: the schema decides.
  return invalidCandidates(schema, opts).filter((c) => !accepts(c.value));
}

/** The same mutations without the final check by the schema; exact for schemas without anyOf/oneOf. */
export function invalidCandidates(schema: Schema, opts: InvalidOptions = {}): fc.Arbitrary<InvalidValue> {
  const ms = mutations(schema, "", opts, opts.optionalRoot ?? false);
  if (!ms.length) throw new Error(`the schema ${schema.title ?? ""} has no rule to break`);
  return fc.tuple(opts.base ?? validValues(schema, opts), pick(ms)).map(([base, m]) => ({ kind: m.kind, ...m.apply(structuredClone(base)) }));
}

/**
 * Bodies that are not JSON at all: valid bodies cut short or followed by stray text, and
 * free text. Never blank (a blank body is "no body", which some endpoints allow).
 */
export function malformedJson(valid: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  const broken = fc.tuple(valid, fc.constantFrom("cut", "stray-brace", "stray-comma", "stray-text"), fc.nat()).map(([v, how, n]) => {
    const json = JSON.stringify(v);
    if (how === "cut") return json.slice(0, Math.max(1, n % json.length));
    if (how === "stray-brace") return json + "}";
    if (how === "stray-comma") return json.replace(/[}\]]$/, ",$&");
    return `${json} and more`;
  });
  return fc.oneof(broken, fc.string({ minLength: 1, maxLength: 24 }), fc.constantFrom("{", "{\"a\":", "[1,2", "nul", "{'a': 1}", "{a: 1}")).filter((s) => s.trim() !== "" && !parses(s));
}

function parses(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- valid values

function valid(s: Schema, at: string, opts: DeriveOptions): fc.Arbitrary<unknown> {
  const pinned = opts.overrides?.[at];
  if (pinned) return pinned;
  if (s.oneOf) {
    const rest = without(s, "oneOf");
    return fc.oneof(...s.oneOf.map((b: Schema, i: number) => {
      const others = s.oneOf.filter((_: Schema, j: number) => j !== i).map(conforms);
      return valid(merge(rest, b), at, opts).filter((v) => !others.some((accepts: (v: unknown) => boolean) => accepts(v)));
    }));
  }
  if (s.anyOf) {
    const rest = without(s, "anyOf");
    return fc.oneof(...s.anyOf.map((b: Schema) => valid(merge(rest, b), at, opts)));
  }
  if (s.not) {
    const forbidden = conforms(s.not);
    return valid(without(s, "not"), at, opts).filter((v) => !forbidden(v));
  }
  if ("const" in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
  const types = typesOf(s);
  return fc.oneof(...types.map((t) => ofType(t, s, at, opts)));
}

function ofType(t: JsonType, s: Schema, at: string, opts: DeriveOptions): fc.Arbitrary<unknown> {
  switch (t) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return integers(s);
    case "number":
      return fc.oneof(integers(s), doubles(s));
    case "string":
      return strings(s);
    case "array": {
      const min = s.minItems ?? 0;
      const max = Math.min(s.maxItems ?? Infinity, min + (opts.maxItems ?? DEFAULT_MAX_ITEMS));
      return fc.array(s.items ? valid(s.items, `${at}/*`, opts) : anyJson(), { minLength: min, maxLength: max });
    }
    case "object":
      return objects(s, at, opts);
  }
}

function objects(s: Schema, at: string, opts: DeriveOptions): fc.Arbitrary<Record<string, unknown>> {
  const props: Record<string, Schema> = s.properties ?? {};
  const required: string[] = s.required ?? [];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries(props)) model[name] = valid(sub, `${at}/${escape(name)}`, opts);
  for (const name of required) model[name] ??= anyJson();
  const declared = fc.record(model, { requiredKeys: required, noNullPrototype: true });
  const free = s.additionalProperties;
  // Extra keys only where the schema says what they hold, or where it declares nothing at all.
  const extraValues = typeof free === "object" ? valid(free, `${at}/*`, opts) : free === undefined && !s.properties && !required.length ? anyJson() : undefined;
  if (!extraValues) return declared;
  const extras = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !(k in props)), extraValues, { maxKeys: opts.maxItems ?? DEFAULT_MAX_ITEMS, noNullPrototype: true });
  return fc.tuple(declared, extras).map(([d, e]) => ({ ...e, ...d }));
}

function integers(s: Schema): fc.Arbitrary<number> {
  const min = Math.max(-INT_BOUND, s.minimum !== undefined ? Math.ceil(s.minimum) : s.exclusiveMinimum !== undefined ? Math.floor(s.exclusiveMinimum) + 1 : -INT_BOUND);
  const max = Math.min(INT_BOUND, s.maximum !== undefined ? Math.floor(s.maximum) : s.exclusiveMaximum !== undefined ? Math.ceil(s.exclusiveMaximum) - 1 : INT_BOUND);
  return fc.integer({ min, max });
}

function doubles(s: Schema): fc.Arbitrary<number> {
  return fc.double({
    min: s.minimum ?? s.exclusiveMinimum ?? -1e9,
    minExcluded: s.minimum === undefined && s.exclusiveMinimum !== undefined,
    max: s.maximum ?? s.exclusiveMaximum ?? 1e9,
    maxExcluded: s.maximum === undefined && s.exclusiveMaximum !== undefined,
    noNaN: true,
    noDefaultInfinity: true,
  }).map((n) => n + 0); // -0 arrives as 0 (see anyJson)
}

/** Mostly ASCII, some of any script: code points, as JSON Schema counts lengths. */
const char = fc.oneof({ arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }), weight: 4 }, { arbitrary: fc.string({ unit: "grapheme-composite", minLength: 1, maxLength: 1 }), weight: 1 });

/** Text of minLength to maxLength code points. */
export function text(minLength = 0, maxLength = 16): fc.Arbitrary<string> {
  return fc.string({ unit: char, minLength, maxLength });
}

/**
 * Text of hundreds to thousands of code points (a field a client fills from a document, a pasted
 * description): a run of generated text repeated to the length, so that drawing and shrinking it
 * stay cheap.
 */
export function longText(minLength = 200, maxLength = 4000): fc.Arbitrary<string> {
  return fc.tuple(text(1, 12), fc.integer({ min: minLength, max: maxLength })).map(([unit, n]) => [...unit.repeat(Math.ceil(n / [...unit].length))].slice(0, n).join(""));
}

function strings(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Math.max(min, 16);
  const fits = (v: string) => codePoints(v) >= min && codePoints(v) <= max;
  if (s.pattern) return fc.stringMatching(new RegExp(s.pattern, "u")).filter(fits);
  switch (s.format) {
    case "date":
      return dates().map((d) => d.toISOString().slice(0, 10));
    case "date-time":
      return dates().map((d) => d.toISOString());
    case "uri":
      return fc.webUrl().filter(fits);
  }
  return text(min, max);
}

function dates(): fc.Arbitrary<Date> {
  return fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2099-12-31T23:59:59Z"), noInvalidDate: true });
}

/** -0 is the one JSON value that does not survive the wire: it arrives as 0. */
function anyJson(): fc.Arbitrary<unknown> {
  return fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)));
}

// ---------------------------------------------------------------- invalid values

interface Mutation {
  kind: InvalidKind;
  /** Breaks a valid value (the caller's copy) and says where. */
  apply(base: unknown): { value: unknown; at: string };
}

/**
 * The breaks of one place, each weighted by the single-rule breaks it stands for, so that a
 * break deep inside (an item's field) is drawn as often as one at the top.
 */
type Breaks = fc.WeightedArbitrary<Mutation>[];
const one = (arbitrary: fc.Arbitrary<Mutation>) => ({ arbitrary, weight: 1 });
const under = (inner: Breaks, arbitrary: fc.Arbitrary<Mutation>) => ({ arbitrary, weight: inner.reduce((n, b) => n + b.weight, 0) });
const pick = (breaks: Breaks) => fc.oneof(...breaks);

/**
 * Every single-rule break of the schema at this place and below. `typeBreak` is false inside a
 * union's branch: the union's own wrong types are broken once, at the union.
 */
function mutations(s: Schema, at: string, opts: DeriveOptions, optional: boolean, typeBreak = true): Breaks {
  const out: Breaks = [];
  const replace = (kind: InvalidKind, values: fc.Arbitrary<unknown>) => out.push(one(values.map((value) => ({ kind, apply: () => ({ value, at: "" }) }))));
  const branches: Schema[] | undefined = s.oneOf ?? s.anyOf;

  const types = declaredTypes(s) ?? (branches ? unionTypes(branches) : undefined);
  if (typeBreak && types) {
    const wrong = wrongTypes(types, optional && !!opts.nullIsAbsent);
    if (wrong) out.push(one(wrong.map((value) => ({ kind: "wrong-type" as const, apply: (b: unknown) => ({ value: value === LOOK_ALIKE ? lookAlike(b) : value, at: "" }) }))));
  }
  if (branches) {
    const rest = without(without(s, "oneOf"), "anyOf");
    for (const b of branches) out.push(...mutations(merge(rest, b), at, opts, optional, false));
    // A value that satisfies two branches of a oneOf satisfies it not.
    if (s.oneOf && branches.length > 1) replace("several-branches", valid(merge(merge(rest, branches[0]), branches[1]), at, opts));
    return out;
  }
  if (s.not) replace("forbidden-value", valid(merge(without(s, "not"), s.not), at, opts));
  if ("const" in s && typeof s.const === "string") replace("not-const", text(0, 12).filter((v) => v !== s.const));
  const names = ((s.enum ?? []) as unknown[]).filter((v): v is string => typeof v === "string");
  if (names.length) {
    // Near misses of an advertised value are the likeliest mistakes: another case, a plural, a separator.
    const nearMisses = names.flatMap(enumNearMisses).filter((v) => !names.includes(v));
    replace("unknown-enum", fc.oneof({ arbitrary: text(1, 12), weight: 1 }, { arbitrary: fc.constantFrom(...nearMisses, "UNKNOWN"), weight: 3 }).filter((v) => !(s.enum as unknown[]).includes(v)));
  }
  const own = types ?? [];
  if (own.includes("integer") || own.includes("number")) out.push(...rangeMutations(s, !own.includes("number")));
  if (own.includes("string")) {
    if (s.maxLength !== undefined) replace("too-long", text(s.maxLength + 1, s.maxLength + 40));
    if (s.minLength) replace("too-short", text(0, s.minLength - 1));
    if (s.pattern) {
      const re = new RegExp(s.pattern, "u");
      // The value it replaces, with a stray character: a near miss that keeps what identifies it.
      const twist = fc.tuple(fc.constantFrom("1", "-", " ", ""), fc.constantFrom("-", " ", ".", "\u00e4", "")).filter(([a, z]) => a + z !== "");
      out.push(one(fc.tuple(twist, text(0, 12)).map(([[a, z], fallback]) => ({
        kind: "pattern" as const,
        apply: (b: unknown) => {
          const near = `${a}${typeof b === "string" ? b : fallback}${z}`;
          return { value: re.test(near) ? `${near}\n-` : near, at: "" };
        },
      }))));
    }
    if (s.format === "date" || s.format === "date-time") replace("format", fc.constantFrom(...NOT_A_DATE));
    if (s.format === "uri") replace("format", fc.constantFrom(...NOT_A_URI));
  }
  if (own.includes("array")) out.push(...arrayMutations(s, at, opts));
  if (own.includes("object")) out.push(...objectMutations(s, at, opts));
  return out;
}

/** `CHART` as `chart`, `Chart`, `CHARTS`, `CHART_`; `TIME_GRAIN` also as `TIME-GRAIN` and `TIMEGRAIN`. */
function enumNearMisses(v: string): string[] {
  const other = v.toLowerCase() === v ? v.toUpperCase() : v.toLowerCase();
  const capitalised = v.charAt(0).toUpperCase() + v.slice(1).toLowerCase();
  const plural = /[a-z]$/.test(v) ? `${v}s` : `${v}S`;
  const separators = v.includes("_") ? [v.replace(/_/g, "-"), v.replace(/_/g, "")] : [];
  return [...new Set([other, capitalised, plural, `${v}_`, ...separators])];
}

function rangeMutations(s: Schema, integer: boolean): Breaks {
  const SPAN = 1e4;
  const below = (bound: number, inclusive: boolean) =>
    integer ? fc.integer({ min: Math.floor(bound) - SPAN, max: inclusive ? Math.floor(bound) : Math.ceil(bound) - 1 }) : fc.double({ min: bound - SPAN, max: bound, maxExcluded: !inclusive, noNaN: true });
  const above = (bound: number, inclusive: boolean) =>
    integer ? fc.integer({ min: inclusive ? Math.ceil(bound) : Math.floor(bound) + 1, max: Math.ceil(bound) + SPAN }) : fc.double({ min: bound, max: bound + SPAN, minExcluded: !inclusive, noNaN: true });
  const values: fc.Arbitrary<number>[] = [];
  if (s.minimum !== undefined) values.push(below(s.minimum, false));
  if (s.exclusiveMinimum !== undefined) values.push(below(s.exclusiveMinimum, true));
  if (s.maximum !== undefined) values.push(above(s.maximum, false));
  if (s.exclusiveMaximum !== undefined) values.push(above(s.exclusiveMaximum, true));
  return values.map((v) => one(v.map((value) => ({ kind: "out-of-range" as const, apply: () => ({ value, at: "" }) }))));
}

function arrayMutations(s: Schema, at: string, opts: DeriveOptions): Breaks {
  const out: Breaks = [];
  const item = s.items ? valid(s.items, `${at}/*`, opts) : anyJson();
  if (s.maxItems !== undefined) {
    // Distinct entries (a server may collapse duplicates before it counts), drawn like any element:
    // an override there decides what the extra entries may name.
    const extra = fc.uniqueArray(item, { minLength: s.maxItems + 1, maxLength: s.maxItems + 3, selector: (v) => JSON.stringify(v) });
    out.push(one(extra.map((fillers) => ({
      kind: "too-many-items" as const,
      apply: (b: unknown) => {
        const kept = Array.isArray(b) ? b : [];
        const seen = new Set(kept.map((v) => JSON.stringify(v)));
        return { value: [...kept, ...fillers.filter((f) => !seen.has(JSON.stringify(f)))].slice(0, fillers.length), at: "" };
      },
    }))));
  }
  if (s.minItems) out.push(one(fc.constant({ kind: "too-few-items" as const, apply: (b: unknown) => ({ value: Array.isArray(b) ? b.slice(0, s.minItems - 1) : [], at: "" }) })));
  const inner = s.items ? mutations(s.items, `${at}/*`, opts, false) : [];
  if (inner.length)
    out.push(under(inner, fc.tuple(item, pick(inner), fc.nat()).map(([filler, m, i]) => ({
      kind: m.kind,
      apply: (b: unknown) => {
        const arr = Array.isArray(b) && b.length ? [...b] : [filler];
        const index = i % arr.length;
        const broken = m.apply(arr[index]);
        arr[index] = broken.value;
        return { value: arr, at: `/${index}${broken.at}` };
      },
    }))));
  return out;
}

function objectMutations(s: Schema, at: string, opts: DeriveOptions): Breaks {
  const out: Breaks = [];
  const props: Record<string, Schema> = s.properties ?? {};
  const required: string[] = s.required ?? [];
  // Used when the value to break is not an object: it then came from another branch of a union.
  const whole = objects(s, at, opts);
  const asObject = (b: unknown, filler: Record<string, unknown>) => (isObject(b) ? { ...b } : filler);
  for (const name of required)
    out.push(one(whole.map((filler) => ({
      kind: "missing-required" as const,
      apply: (b: unknown) => {
        const o = asObject(b, filler);
        delete o[name];
        return { value: o, at: `/${escape(name)}` };
      },
    }))));
  const places: [string | undefined, Schema, boolean][] = Object.entries(props).map(([name, sub]) => [name, sub, !required.includes(name)]);
  if (typeof s.additionalProperties === "object") places.push([undefined, s.additionalProperties, true]);
  for (const [name, sub, optional] of places) {
    const pointer = `${at}/${name === undefined ? "*" : escape(name)}`;
    const inner = mutations(sub, pointer, opts, optional);
    if (!inner.length) continue;
    const key = name !== undefined ? fc.constant(name) : fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,11}$/).filter((k) => !(k in props));
    out.push(under(inner, fc.tuple(whole, valid(sub, pointer, opts), key, pick(inner)).map(([filler, fillerValue, k, m]) => ({
      kind: m.kind,
      apply: (b: unknown) => {
        const o = asObject(b, filler);
        const broken = m.apply(k in o ? o[k] : fillerValue);
        o[k] = broken.value;
        return { value: o, at: `/${escape(k)}${broken.at}` };
      },
    }))));
  }
  return out;
}

/** Stands for the value being replaced, written as the JSON type a lenient server would coerce. */
const LOOK_ALIKE = Symbol("look-alike");

/**
 * "12" for 12, "true" for true: the coercion a lenient server accepts. Derived from the value it
 * replaces, so that a server that does coerce acts on what the valid request named, not on some
 * other object that a random number might name.
 */
function lookAlike(replaced: unknown): string {
  return typeof replaced === "number" || typeof replaced === "boolean" ? String(replaced) : "1";
}

/**
 * Values of every JSON type the schema does not allow. The look-alike of a number or boolean, the
 * likeliest leniency of a server, is drawn as often as all the other wrong types together.
 */
function wrongTypes(allowed: JsonType[], noNull: boolean): fc.Arbitrary<unknown> | undefined {
  const has = (t: JsonType) => allowed.includes(t);
  const numeric = has("integer") || has("number");
  const options: fc.Arbitrary<unknown>[] = [];
  if (!has("string")) options.push(text(0, 12));
  if (!numeric) options.push(has("boolean") ? fc.constantFrom(0, 1) : fc.integer({ min: -1000, max: 100_000 }));
  if (!has("number")) options.push(fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }));
  if (!has("boolean")) options.push(fc.boolean());
  if (!has("null") && !noNull) options.push(fc.constant(null));
  if (!has("object")) options.push(fc.constantFrom({}, { value: 1 }));
  if (!has("array")) options.push(fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 2 }));
  const lookAlikes = !has("string") && (numeric || has("boolean")) ? [{ arbitrary: fc.constant<unknown>(LOOK_ALIKE), weight: options.length }] : [];
  return options.length ? fc.oneof(...lookAlikes, ...options) : undefined;
}

// ---------------------------------------------------------------- schema helpers

/** The types a schema names, or undefined when it names none (then nothing is a wrong type). */
function declaredTypes(s: Schema): JsonType[] | undefined {
  if (s.type === undefined) return undefined;
  return Array.isArray(s.type) ? s.type : [s.type];
}

function typesOf(s: Schema): JsonType[] {
  const declared = declaredTypes(s);
  // "number" values already include integers.
  if (declared) return declared.includes("number") ? declared.filter((t) => t !== "integer") : declared;
  if (s.properties || s.required || s.additionalProperties !== undefined) return ["object"];
  if (s.items) return ["array"];
  return TYPES;
}

/** The types a union allows, when each of its branches names its own. */
function unionTypes(branches: Schema[]): JsonType[] | undefined {
  const each = branches.map(declaredTypes);
  return each.every((t) => t) ? [...new Set(each.flat() as JsonType[])] : undefined;
}

/** Both schemas at once, for the subset above: properties merged, required and type combined. */
function merge(a: Schema, b: Schema): Schema {
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

function without(s: Schema, key: string): Schema {
  const { [key]: _, ...rest } = s;
  return rest;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function codePoints(s: string): number {
  return [...s].length;
}

function escape(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
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
