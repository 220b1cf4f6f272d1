import fc from "fast-check";
import { declaredTypes, isObject, merge, mergedAllOf, NotGenerated, unionTypes, without, type JsonType, type Schema } from "./schema-shape.js";
import { anyJson, bounded, objects, text, valid, type Derivation } from "./schema-valid.js";
import { pointerToken } from "../core/model/json-pointer.js";

/**
 * Invalid values: each mutation breaks exactly one rule of the schema somewhere in an otherwise
 * valid value (schema.ts filters the few a union's other branch still accepts).
 */
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

const NOT_A_DATE = ["2024-13-01", "2024-02-30", "2024-01-01T25:61:00Z", "yesterday", "01/02/2024", "20240101"];
const NOT_A_URI = ["not a uri", "//missing-scheme", "http://exa mple.com", ""];

/** What `make` gives, or `otherwise` where the schema place has no valid value to start from (an unsatisfiable branch). */
function unlessUnsatisfiable<T>(make: () => T, otherwise: T): T {
  try {
    return make();
  } catch (err) {
    if (err instanceof NotGenerated && !/schema places|levels/.test(err.why)) return otherwise;
    throw err;
  }
}

export interface Mutation {
  kind: InvalidKind;
  /** Breaks a valid value (the caller's copy) and says where. */
  apply(base: unknown): { value: unknown; at: string };
}

/**
 * The breaks of one place, each weighted by the single-rule breaks it stands for, so that a
 * break deep inside (an item's field) is drawn as often as one at the top.
 */
export type Breaks = fc.WeightedArbitrary<Mutation>[];
const one = (arbitrary: fc.Arbitrary<Mutation>) => ({ arbitrary, weight: 1 });
const under = (inner: Breaks, arbitrary: fc.Arbitrary<Mutation>) => ({ arbitrary, weight: inner.reduce((n, b) => n + b.weight, 0) });
export const pick = (breaks: Breaks) => fc.oneof(...breaks);

/**
 * Every single-rule break of the schema at this place and below. `typeBreak` is false inside a
 * union's branch: the union's own wrong types are broken once, at the union.
 */
export function mutations(s: Schema, at: string, d: Derivation, optional: boolean, typeBreak = true): Breaks {
  // A value must satisfy every member of an allOf: breaking one rule of any member (a required
  // field missing, a property mistyped) breaks the whole, so the members are broken as one schema.
  if (Array.isArray(s.allOf)) return mutations(mergedAllOf(s as Schema & { allOf: Schema[] }), at, d, optional, typeBreak);
  const out: Breaks = [];
  const replace = (kind: InvalidKind, values: fc.Arbitrary<unknown>) => out.push(one(values.map((value) => ({ kind, apply: () => ({ value, at: "" }) }))));
  const branches: Schema[] | undefined = s.oneOf ?? s.anyOf;

  const types = declaredTypes(s) ?? (branches ? unionTypes(branches) : undefined);
  if (typeBreak && types) {
    const wrong = wrongTypes(types, optional && !!d.nullIsAbsent);
    if (wrong)
      out.push(
        one(wrong.map((value) => ({ kind: "wrong-type" as const, apply: (b: unknown) => ({ value: value === LOOK_ALIKE ? lookAlike(b) : value, at: "" }) }))),
      );
  }
  if (branches) {
    const rest = without(without(s, "oneOf"), "anyOf");
    for (const b of branches) out.push(...unlessUnsatisfiable(() => mutations(merge(rest, b), at, d, optional, false), []));
    // A value that satisfies two branches of a oneOf satisfies it not.
    const both = s.oneOf && branches.length > 1 ? unlessUnsatisfiable(() => valid(merge(merge(rest, branches[0]), branches[1]), at, d), undefined) : undefined;
    if (both) replace("several-branches", both);
    return out;
  }
  const forbidden = s.not ? unlessUnsatisfiable(() => valid(merge(without(s, "not"), s.not), at, d), undefined) : undefined;
  if (forbidden) replace("forbidden-value", forbidden);
  if ("const" in s && typeof s.const === "string")
    replace(
      "not-const",
      text(0, 12).filter((v) => v !== s.const),
    );
  const names = ((s.enum ?? []) as unknown[]).filter((v): v is string => typeof v === "string");
  if (names.length) {
    // Near misses of an advertised value are the likeliest mistakes: another case, a plural, a separator.
    const nearMisses = names.flatMap(enumNearMisses).filter((v) => !names.includes(v));
    replace(
      "unknown-enum",
      fc
        .oneof({ arbitrary: text(1, 12), weight: 1 }, { arbitrary: fc.constantFrom(...nearMisses, "UNKNOWN"), weight: 3 })
        .filter((v) => !(s.enum as unknown[]).includes(v)),
    );
  } else if (Array.isArray(s.enum) && !types) {
    // An enum of other values (numbers, objects) and no type: any JSON value it does not list breaks it.
    const listed = new Set((s.enum as unknown[]).map((v) => JSON.stringify(v)));
    replace(
      "unknown-enum",
      bounded(anyJson(), (v) => !listed.has(JSON.stringify(v)), d, at, "outside its enum"),
    );
  }
  if ("const" in s && typeof s.const !== "string" && !types)
    replace(
      "not-const",
      bounded(anyJson(), (v) => JSON.stringify(v) !== JSON.stringify(s.const), d, at, "other than its const"),
    );
  const own = types ?? [];
  if (own.includes("integer") || own.includes("number")) out.push(...rangeMutations(s, !own.includes("number")));
  if (own.includes("string")) {
    if (s.maxLength !== undefined) replace("too-long", text(s.maxLength + 1, s.maxLength + 40));
    if (s.minLength) replace("too-short", text(0, s.minLength - 1));
    if (s.pattern) {
      const re = new RegExp(s.pattern, "u");
      // The value it replaces, with a stray character: a near miss that keeps what identifies it.
      const twist = fc.tuple(fc.constantFrom("1", "-", " ", ""), fc.constantFrom("-", " ", ".", "\u00e4", "")).filter(([a, z]) => a + z !== "");
      out.push(
        one(
          fc.tuple(twist, text(0, 12)).map(([[a, z], fallback]) => ({
            kind: "pattern" as const,
            apply: (b: unknown) => {
              const near = `${a}${typeof b === "string" ? b : fallback}${z}`;
              return { value: re.test(near) ? `${near}\n-` : near, at: "" };
            },
          })),
        ),
      );
    }
    if (s.format === "date" || s.format === "date-time") replace("format", fc.constantFrom(...NOT_A_DATE));
    if (s.format === "uri") replace("format", fc.constantFrom(...NOT_A_URI));
  }
  if (own.includes("array")) out.push(...arrayMutations(s, at, d));
  if (own.includes("object")) out.push(...objectMutations(s, at, d));
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
    integer
      ? fc.integer({ min: Math.floor(bound) - SPAN, max: inclusive ? Math.floor(bound) : Math.ceil(bound) - 1 })
      : fc.double({ min: bound - SPAN, max: bound, maxExcluded: !inclusive, noNaN: true });
  const above = (bound: number, inclusive: boolean) =>
    integer
      ? fc.integer({ min: inclusive ? Math.ceil(bound) : Math.floor(bound) + 1, max: Math.ceil(bound) + SPAN })
      : fc.double({ min: bound, max: bound + SPAN, minExcluded: !inclusive, noNaN: true });
  const values: fc.Arbitrary<number>[] = [];
  if (s.minimum !== undefined) values.push(below(s.minimum, false));
  if (s.exclusiveMinimum !== undefined) values.push(below(s.exclusiveMinimum, true));
  if (s.maximum !== undefined) values.push(above(s.maximum, false));
  if (s.exclusiveMaximum !== undefined) values.push(above(s.exclusiveMaximum, true));
  return values.map((v) => one(v.map((value) => ({ kind: "out-of-range" as const, apply: () => ({ value, at: "" }) }))));
}

function arrayMutations(s: Schema, at: string, d: Derivation): Breaks {
  const out: Breaks = [];
  const item = s.items ? valid(s.items, `${at}/*`, d) : anyJson();
  if (s.maxItems !== undefined) {
    // Distinct entries (a server may collapse duplicates before it counts), drawn like any element:
    // an override there decides what the extra entries may name.
    const extra = fc.uniqueArray(item, { minLength: s.maxItems + 1, maxLength: s.maxItems + 3, selector: (v) => JSON.stringify(v) });
    out.push(
      one(
        extra.map((fillers) => ({
          kind: "too-many-items" as const,
          apply: (b: unknown) => {
            const kept = Array.isArray(b) ? b : [];
            const seen = new Set(kept.map((v) => JSON.stringify(v)));
            return { value: [...kept, ...fillers.filter((f) => !seen.has(JSON.stringify(f)))].slice(0, fillers.length), at: "" };
          },
        })),
      ),
    );
  }
  if (s.minItems)
    out.push(
      one(fc.constant({ kind: "too-few-items" as const, apply: (b: unknown) => ({ value: Array.isArray(b) ? b.slice(0, s.minItems - 1) : [], at: "" }) })),
    );
  const inner = s.items ? mutations(s.items, `${at}/*`, d, false) : [];
  if (inner.length)
    out.push(
      under(
        inner,
        fc.tuple(item, pick(inner), fc.nat()).map(([filler, m, i]) => ({
          kind: m.kind,
          apply: (b: unknown) => {
            const arr = Array.isArray(b) && b.length ? [...b] : [filler];
            const index = i % arr.length;
            const broken = m.apply(arr[index]);
            arr[index] = broken.value;
            return { value: arr, at: `/${index}${broken.at}` };
          },
        })),
      ),
    );
  return out;
}

function objectMutations(s: Schema, at: string, d: Derivation): Breaks {
  const out: Breaks = [];
  const props: Record<string, Schema> = s.properties ?? {};
  const required: string[] = s.required ?? [];
  // Used when the value to break is not an object: it then came from another branch of a union.
  const whole = objects(s, at, d);
  const asObject = (b: unknown, filler: Record<string, unknown>) => (isObject(b) ? { ...b } : filler);
  for (const name of required)
    out.push(
      one(
        whole.map((filler) => ({
          kind: "missing-required" as const,
          apply: (b: unknown) => {
            const o = asObject(b, filler);
            delete o[name];
            return { value: o, at: `/${pointerToken(name)}` };
          },
        })),
      ),
    );
  const places: [string | undefined, Schema, boolean][] = Object.entries(props).map(([name, sub]) => [name, sub, !required.includes(name)]);
  if (typeof s.additionalProperties === "object") places.push([undefined, s.additionalProperties, true]);
  for (const [name, sub, optional] of places) {
    const pointer = `${at}/${name === undefined ? "*" : escape(name)}`;
    const inner = mutations(sub, pointer, d, optional);
    if (!inner.length) continue;
    const key = name !== undefined ? fc.constant(name) : fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,11}$/).filter((k) => !(k in props));
    out.push(
      under(
        inner,
        fc.tuple(whole, valid(sub, pointer, d), key, pick(inner)).map(([filler, fillerValue, k, m]) => ({
          kind: m.kind,
          apply: (b: unknown) => {
            const o = asObject(b, filler);
            const broken = m.apply(k in o ? o[k] : fillerValue);
            o[k] = broken.value;
            return { value: o, at: `/${pointerToken(k)}${broken.at}` };
          },
        })),
      ),
    );
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
