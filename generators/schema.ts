import fc from "fast-check";
import { conforms, NotGenerated, schemaLabel, type Schema } from "./schema-shape.js";
import { mutations, pick, type InvalidKind } from "./schema-invalid.js";
import { bounded, derivation, valid, type Derivation, type DeriveOptions } from "./schema-valid.js";

/**
 * Values derived from a (dereferenced) JSON Schema of OpenAPI 3.1: type (or a list of types),
 * properties / required / additionalProperties, enum (of any values), const, allOf, anyOf / oneOf (with
 * null, or overlapping), items / minItems / maxItems, minimum / maximum / exclusive bounds,
 * minLength / maxLength, pattern, format (date, date-time, uri) and not. `validValues` builds values
 * that satisfy the schema; `invalidValues` breaks exactly one rule of it somewhere in an otherwise
 * valid value. Neither crashes nor hangs: a schema no value satisfies, or whose values are too
 * rare, too large or too slow to draw, throws NotGenerated naming it (`name`, its title or its text).
 */
export { conforms, NotGenerated, type Schema } from "./schema-shape.js";
export type { InvalidKind } from "./schema-invalid.js";
export { longText, text, type DeriveOptions } from "./schema-valid.js";

export interface InvalidValue {
  value: unknown;
  kind: InvalidKind;
  /** JSON pointer of the broken place ("" is the whole value). */
  at: string;
}

export interface InvalidOptions extends DeriveOptions {
  /** The valid values to break (default: validValues of the schema). */
  base?: fc.Arbitrary<unknown>;
}

/** A few values drawn at once take at most this long: a schema slower than that is not generated. */
const TIME_BOUND_MS = 5000;

/** Every value it yields satisfies the schema. */
export function validValues(schema: Schema, opts: DeriveOptions = {}): fc.Arbitrary<unknown> {
  const d = derivation(opts, schema, schemaLabel);
  return timed(() => valid(schema, "", d), d);
}

/** Every value it yields breaks the schema at one place; the rest of it stays valid. */
export function invalidValues(schema: Schema, opts: InvalidOptions = {}): fc.Arbitrary<InvalidValue> {
  const accepts = conforms(schema);
  const d = derivation(opts, schema, schemaLabel);
  // A change inside one branch of an anyOf/oneOf may still satisfy another branch: the schema decides.
  return timed(() => bounded(candidates(schema, opts, d), (c) => !accepts(c.value), d, "", "a break the schema refuses"), d);
}

/** The same mutations without the final check by the schema; exact for schemas without anyOf/oneOf. */
export function invalidCandidates(schema: Schema, opts: InvalidOptions = {}): fc.Arbitrary<InvalidValue> {
  const d = derivation(opts, schema, schemaLabel);
  return timed(() => candidates(schema, opts, d), d);
}

function candidates(schema: Schema, opts: InvalidOptions, d: Derivation): fc.Arbitrary<InvalidValue> {
  const ms = mutations(schema, "", d, opts.optionalRoot ?? false);
  if (!ms.length) throw new NotGenerated(d.label, "", "no rule to break");
  return fc.tuple(opts.base ?? valid(schema, "", d), pick(ms)).map(([base, m]) => ({ kind: m.kind, ...m.apply(structuredClone(base)) }));
}

/** The arbitrary `make` builds, once a few of its values were drawn within the time bound. */
function timed<T>(make: () => fc.Arbitrary<T>, d: Derivation): fc.Arbitrary<T> {
  // CPU time, not the wall clock: drawing is synchronous, and a busy machine must not turn a schema into "not generated".
  const started = process.cpuUsage();
  const arb = make();
  fc.sample(arb, { numRuns: 3, seed: 0 });
  const spent = process.cpuUsage(started);
  const took = Math.round((spent.user + spent.system) / 1000);
  if (took > TIME_BOUND_MS) throw new NotGenerated(d.label, "", `drawing 3 values took ${took} ms (bound ${TIME_BOUND_MS} ms)`);
  return arb;
}

/**
 * Ways a valid body's JSON stops being JSON that a lenient parser lets through: a value followed by
 * more (a decoder that reads the first value and stops: Go's json.Decoder, Jackson by default), a
 * trailing comma and single quotes (a relaxed or JSON5 reader). Each is sent on every run of a
 * negative property (notJsonForms), not left to the draws of a seed.
 */
const LENIENT_PARSER_BREAKS = {
  "stray-brace": (json: string) => `${json}}`,
  "stray-comma": (json: string) => json.replace(/[}\]]$/, ",$&"),
  "single-quotes": (json: string) => json.replaceAll('"', "'"),
} as const;

/** A valid body's JSON in each of the ways a lenient parser takes (LENIENT_PARSER_BREAKS), those that do not parse as JSON. */
export function notJsonForms(valid: unknown): string[] {
  const json = JSON.stringify(valid);
  return Object.values(LENIENT_PARSER_BREAKS)
    .map((brk) => brk(json))
    .filter((s) => !parses(s));
}

/**
 * Bodies that are not JSON at all: valid bodies cut short, followed by stray text or broken as a
 * lenient parser takes them, and free text. Never blank (a blank body is "no body", which some endpoints allow).
 */
export function malformedJson(validBodies: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  const ways = ["cut", "stray-text", ...Object.keys(LENIENT_PARSER_BREAKS)] as const;
  const broken = fc.tuple(validBodies, fc.constantFrom(...ways), fc.nat()).map(([v, how, n]) => {
    const json = JSON.stringify(v);
    if (how === "cut") return json.slice(0, Math.max(1, n % json.length));
    if (how === "stray-text") return `${json} and more`;
    return LENIENT_PARSER_BREAKS[how as keyof typeof LENIENT_PARSER_BREAKS](json);
  });
  return fc
    .oneof(broken, fc.string({ minLength: 1, maxLength: 24 }), fc.constantFrom("{", '{"a":', "[1,2", "nul", "{'a': 1}", "{a: 1}"))
    .filter((s) => s.trim() !== "" && !parses(s));
}

function parses(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}
