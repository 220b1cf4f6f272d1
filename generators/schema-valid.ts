import fc from "fast-check";
import { codePoints, conforms, merge, mergedAllOf, NotGenerated, typesOf, without, type JsonType, type Schema } from "./schema-shape.js";
import { pointerToken } from "../core/model/json-pointer.js";

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
  /** How a NotGenerated error names the schema (a parameter, a body): its title or text otherwise. */
  name?: string;
}

/** The options of one derivation, with the bounds it spends: a schema too large or too deep is not generated. */
export interface Derivation extends DeriveOptions {
  label: string;
  nodes: number;
}

const DEFAULT_MAX_ITEMS = 4;
const INT_BOUND = 2 ** 31 - 1;
/** Schema places one derivation visits at most, and the depth of pointer it follows (a recursive schema goes on forever). */
const MAX_NODES = 200_000;
const MAX_DEPTH = 24;
/** Draws a filtered place may reject in a row before its values count as too rare to draw. */
const MAX_REJECTIONS = 1000;
const PREFLIGHT = 20;

export const derivation = (opts: DeriveOptions, s: Schema, label: (s: Schema, name?: string) => string): Derivation => ({
  ...opts,
  label: label(s, opts.name),
  nodes: 0,
});

export const maxItemsOf = (d: DeriveOptions) => d.maxItems ?? DEFAULT_MAX_ITEMS;

/**
 * The values of `arb` that `keep` accepts, without the endless redraw of a plain filter: a place
 * none of whose first draws is kept is not generated, and one that rejects too many in a row while
 * a property runs stops it with the same error.
 */
export function bounded<T>(arb: fc.Arbitrary<T>, keep: (v: T) => boolean, d: Derivation, at: string, what: string): fc.Arbitrary<T> {
  const drawn = fc.sample(arb, { numRuns: PREFLIGHT, seed: 0 });
  if (!drawn.some(keep)) throw new NotGenerated(d.label, at, `no drawn value is ${what}`);
  let rejected = 0;
  return arb.filter((v) => {
    if (keep(v)) {
      rejected = 0;
      return true;
    }
    if (++rejected > MAX_REJECTIONS) throw new NotGenerated(d.label, at, `${MAX_REJECTIONS} draws in a row were not ${what}`);
    return false;
  });
}

/** Every value it yields satisfies the schema at `at`. */
export function valid(s: Schema, at: string, d: Derivation): fc.Arbitrary<unknown> {
  const pinned = d.overrides?.[at];
  if (pinned) return pinned;
  if (++d.nodes > MAX_NODES) throw new NotGenerated(d.label, at, `more than ${MAX_NODES} schema places`);
  if (at.split("/").length > MAX_DEPTH) throw new NotGenerated(d.label, at, `deeper than ${MAX_DEPTH} levels (a recursive schema)`);
  if (Array.isArray(s.allOf)) return valid(mergedAllOf(s as Schema & { allOf: Schema[] }), at, d);
  if (s.oneOf) {
    const rest = without(s, "oneOf");
    return oneOfSatisfiable(
      s.oneOf.map((b: Schema, i: number) => () => {
        const others = s.oneOf.filter((_: Schema, j: number) => j !== i).map(conforms);
        return bounded(
          valid(merge(rest, b), at, d),
          (v) => !others.some((accepts: (v: unknown) => boolean) => accepts(v)),
          d,
          at,
          `of branch ${i} of the oneOf alone`,
        );
      }),
      d,
      at,
    );
  }
  if (s.anyOf) {
    const rest = without(s, "anyOf");
    return oneOfSatisfiable(
      s.anyOf.map((b: Schema) => () => valid(merge(rest, b), at, d)),
      d,
      at,
    );
  }
  if (s.not) {
    const forbidden = conforms(s.not);
    return bounded(valid(without(s, "not"), at, d), (v) => !forbidden(v), d, at, "outside its `not`");
  }
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) {
    const accepts = conforms(s);
    const listed = (s.enum as unknown[]).filter((v) => accepts(v));
    if (!listed.length) throw new NotGenerated(d.label, at, "no value of its enum satisfies it");
    return fc.constantFrom(...listed);
  }
  const types = typesOf(s);
  if (!types.length) throw new NotGenerated(d.label, at, "its types exclude each other");
  return oneOfSatisfiable(
    types.map((t) => () => ofType(t, s, at, d)),
    d,
    at,
  );
}

/** The union of the branches that have values; a branch that has none is left out, and none at all is not generated. */
function oneOfSatisfiable(branches: (() => fc.Arbitrary<unknown>)[], d: Derivation, at: string): fc.Arbitrary<unknown> {
  const arbs: fc.Arbitrary<unknown>[] = [];
  let last: NotGenerated | undefined;
  for (const branch of branches) {
    try {
      arbs.push(branch());
    } catch (err) {
      if (!(err instanceof NotGenerated) || /schema places|levels/.test(err.why)) throw err;
      last = err;
    }
  }
  if (!arbs.length) throw last ?? new NotGenerated(d.label, at, "no branch has a value");
  return fc.oneof(...arbs);
}

function ofType(t: JsonType, s: Schema, at: string, d: Derivation): fc.Arbitrary<unknown> {
  switch (t) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return integers(s, d, at);
    case "number":
      return fc.oneof(integers(s, d, at), doubles(s));
    case "string":
      return strings(s, d, at);
    case "array": {
      const min = s.minItems ?? 0;
      const max = Math.min(s.maxItems ?? Infinity, min + maxItemsOf(d));
      if (max < min) throw new NotGenerated(d.label, at, "maxItems below minItems");
      return fc.array(s.items ? valid(s.items, `${at}/*`, d) : anyJson(), { minLength: min, maxLength: max });
    }
    case "object":
      return objects(s, at, d);
  }
}

export function objects(s: Schema, at: string, d: Derivation): fc.Arbitrary<Record<string, unknown>> {
  const props: Record<string, Schema> = s.properties ?? {};
  const required: string[] = s.required ?? [];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries(props)) model[name] = valid(sub, `${at}/${pointerToken(name)}`, d);
  for (const name of required) model[name] ??= anyJson();
  const declared = fc.record(model, { requiredKeys: required, noNullPrototype: true });
  const free = s.additionalProperties;
  // Extra keys only where the schema says what they hold, or where it declares nothing at all.
  const extraValues = typeof free === "object" ? valid(free, `${at}/*`, d) : free === undefined && !s.properties && !required.length ? anyJson() : undefined;
  if (!extraValues) return declared;
  const extras = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !(k in props)),
    extraValues,
    { maxKeys: maxItemsOf(d), noNullPrototype: true },
  );
  return fc.tuple(declared, extras).map(([dv, e]) => ({ ...e, ...dv }));
}

function integers(s: Schema, d: Derivation, at: string): fc.Arbitrary<number> {
  const min = Math.max(
    -INT_BOUND,
    s.minimum !== undefined ? Math.ceil(s.minimum) : s.exclusiveMinimum !== undefined ? Math.floor(s.exclusiveMinimum) + 1 : -INT_BOUND,
  );
  const max = Math.min(
    INT_BOUND,
    s.maximum !== undefined ? Math.floor(s.maximum) : s.exclusiveMaximum !== undefined ? Math.ceil(s.exclusiveMaximum) - 1 : INT_BOUND,
  );
  if (max < min) throw new NotGenerated(d.label, at, `no integer between ${min} and ${max}`);
  return fc.integer({ min, max });
}

function doubles(s: Schema): fc.Arbitrary<number> {
  return fc
    .double({
      min: s.minimum ?? s.exclusiveMinimum ?? -1e9,
      minExcluded: s.minimum === undefined && s.exclusiveMinimum !== undefined,
      max: s.maximum ?? s.exclusiveMaximum ?? 1e9,
      maxExcluded: s.maximum === undefined && s.exclusiveMaximum !== undefined,
      noNaN: true,
      noDefaultInfinity: true,
    })
    .map((n) => n + 0); // -0 arrives as 0 (see anyJson)
}

/** Mostly ASCII, some of any script: code points, as JSON Schema counts lengths. */
const char = fc.oneof(
  { arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }), weight: 4 },
  { arbitrary: fc.string({ unit: "grapheme-composite", minLength: 1, maxLength: 1 }), weight: 1 },
);

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
  return fc
    .tuple(text(1, 12), fc.integer({ min: minLength, max: maxLength }))
    .map(([unit, n]) => [...unit.repeat(Math.ceil(n / [...unit].length))].slice(0, n).join(""));
}

/** Lengths fast-check's stringMatching may draw at, shortest first: a pattern's own length limits pick the first that fits. */
const PATTERN_SIZES = ["xsmall", "small", "medium", "large", "xlarge"] as const;

/** Values of the formats of JSON Schema 2020-12 (§7.3) a generated document uses; others are drawn as text. */
const FORMATS: Record<string, () => fc.Arbitrary<string>> = {
  date: () => dates().map((v) => v.toISOString().slice(0, 10)),
  "date-time": () => dates().map((v) => v.toISOString()),
  time: () => dates().map((v) => v.toISOString().slice(11)),
  uri: () => plainUrl(),
  "uri-reference": () => plainUrl(),
  email: () => fc.emailAddress({ size: "small" }),
  "idn-email": () => fc.emailAddress({ size: "small" }),
  uuid: () => fc.uuid(),
  ipv4: () => fc.ipV4(),
  ipv6: () => fc.ipV6(),
  hostname: () => fc.domain(),
  "idn-hostname": () => fc.domain(),
};

/**
 * An https URL of a domain and a few plain path segments: fast-check's webUrl draws queries and
 * fragments that take ajv's uri-reference check seconds each.
 */
function plainUrl(): fc.Arbitrary<string> {
  return fc
    .tuple(fc.domain({ size: "small" }), fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { maxLength: 3 }))
    .map(([host, segments]) => `https://${host}/${segments.join("/")}`);
}

function strings(s: Schema, d: Derivation, at: string): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  // Without maxLength, the tool's own bound of 16 applies to free text only: a pattern or a format sets its own length.
  const max = s.maxLength ?? (s.pattern || FORMATS[s.format] ? Number.POSITIVE_INFINITY : Math.max(min, 16));
  if (max < min) throw new NotGenerated(d.label, at, "maxLength below minLength");
  const fits = (v: string) => codePoints(v) >= min && codePoints(v) <= max;
  const within = `of ${min} to ${max} characters`;
  if (s.pattern) {
    let re: RegExp;
    try {
      re = new RegExp(s.pattern, "u");
    } catch {
      throw new NotGenerated(d.label, at, `its pattern ${JSON.stringify(s.pattern)} is no regular expression ECMA-262 reads`);
    }
    // A format beside a pattern: both must hold, so the format's values are kept where they match.
    const matching = (v: string) => fits(v) && re.test(v);
    if (FORMATS[s.format]) return bounded(FORMATS[s.format](), matching, d, at, `a ${s.format} ${within} matching its pattern`);
    const source = drawable(re);
    if (!source) throw new NotGenerated(d.label, at, `its pattern ${JSON.stringify(s.pattern)} holds what no generator here builds (a backreference, say)`);
    // Strings of a pattern without its lookaround are kept only where the whole pattern matches.
    const keep = source === re ? fits : matching;
    const size = PATTERN_SIZES.find((size) => fc.sample(fc.stringMatching(source, { size }), { numRuns: 20, seed: 0 }).some(keep));
    return bounded(fc.stringMatching(source, size ? { size } : {}), keep, d, at, `${within} matching its pattern`);
  }
  if (FORMATS[s.format]) return bounded(FORMATS[s.format](), fits, d, at, `a ${s.format} ${within}`);
  return text(min, max);
}

/**
 * What fast-check's stringMatching can draw from for a pattern: the pattern itself, or, where it
 * holds what stringMatching does not build (a lookahead such as `(?!/)`, a lookbehind), the pattern
 * without its lookaround assertions; undefined where neither builds.
 */
function drawable(re: RegExp): RegExp | undefined {
  for (const candidate of [re.source, withoutLookaround(re.source)])
    try {
      const source = candidate === re.source ? re : new RegExp(candidate, re.flags);
      fc.stringMatching(source);
      return source;
    } catch {
      // Not built: the next candidate, or none.
    }
  return undefined;
}

/** A pattern without its lookaround groups (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`), escapes and character classes read as such. */
export function withoutLookaround(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; ) {
    if (!/^\(\?<?[=!]/.test(pattern.slice(i))) {
      const end = tokenEnd(pattern, i);
      out += pattern.slice(i, end);
      i = end;
      continue;
    }
    // Skip the group whole: to its own closing parenthesis.
    let depth = 0;
    do {
      if (pattern[i] === "(") depth++;
      else if (pattern[i] === ")") depth--;
      i = tokenEnd(pattern, i);
    } while (depth > 0 && i < pattern.length);
  }
  return out;
}

/** Where the token at `i` ends: an escape is two characters, a character class runs to its closing bracket, anything else is one. */
function tokenEnd(pattern: string, i: number): number {
  if (pattern[i] === "\\") return i + 2;
  if (pattern[i] !== "[") return i + 1;
  let j = i + 1;
  while (j < pattern.length && pattern[j] !== "]") j += pattern[j] === "\\" ? 2 : 1;
  return j + 1;
}

function dates(): fc.Arbitrary<Date> {
  return fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2099-12-31T23:59:59Z"), noInvalidDate: true });
}

/** -0 is the one JSON value that does not survive the wire: it arrives as 0. */
export function anyJson(): fc.Arbitrary<unknown> {
  return fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)));
}
