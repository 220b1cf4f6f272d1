import fc from "fast-check";

/*
 * Inputs for the workspace properties and the model test. Everything here is data: which object a
 * value names is decided by the check that creates the objects, so the same arbitraries serve a
 * server the suite has never seen.
 */

/** Plain objects only: fast-check otherwise draws some with a null prototype, which no JSON body holds. */
const PLAIN = { noNullPrototype: true } as const;

// --- E11 rule 1: slugs ---------------------------------------------------------------------

/**
 * Space and tab only: both are whitespace to any trim, and neither is refused on its way through
 * proxies (percent-encoded CR and LF are, by some firewalls).
 */
const SURROUNDING_WHITESPACE = [" ", "\t"] as const;

/** How to dress a canonical (lowercase, trimmed) slug: leading and trailing whitespace, and which letters to capitalise. */
export interface SlugVariant {
  lead: string;
  trail: string;
  upper: boolean[];
}

export const slugVariant: fc.Arbitrary<SlugVariant> = fc.record(
  {
    lead: fc.string({ unit: fc.constantFrom(...SURROUNDING_WHITESPACE), maxLength: 3 }),
    trail: fc.string({ unit: fc.constantFrom(...SURROUNDING_WHITESPACE), maxLength: 3 }),
    upper: fc.array(fc.boolean(), { maxLength: 48 }),
  },
  PLAIN,
);

/** The slug as the variant dresses it; trimming and lowercasing it gives the slug back. */
export function dressSlug(slug: string, v: SlugVariant): string {
  const cased = [...slug].map((ch, i) => (v.upper[i] ? ch.toUpperCase() : ch)).join("");
  return v.lead + cased + v.trail;
}

// --- E11 rule 2: meta -------------------------------------------------------------------------

/** Top-level keys come from a small pool so that a sequence of upserts sends the same key again. */
const META_KEYS = ["theme", "owner", "filters", "tags", "limits", "notes"] as const;
const NESTED_KEYS = ["a", "b", "c", "d", "e"] as const;

export type MetaValue = string | number | boolean | MetaValue[] | { [k: string]: MetaValue };
export type Meta = Record<string, MetaValue>;

/** A few scalars of each JSON type: merging is about keys and nesting, and few values keep shrinking (an upsert a step) short. */
const scalar = fc.constantFrom<MetaValue>(0, 1, -7, 42, "", "x", "light", true, false);

/**
 * No null anywhere: whether a sent null stores null or removes the key is not shown, and a merge
 * property must not take a side. Nested objects reach three levels, often with three or more keys.
 */
const metaValue: fc.Arbitrary<MetaValue> = fc.letrec<{ value: MetaValue; object: MetaValue }>((tie) => ({
  value: fc.oneof({ depthSize: "small", maxDepth: 2, withCrossShrink: true }, scalar, fc.array(scalar, { maxLength: 3 }), tie("object")),
  object: fc.dictionary(fc.constantFrom(...NESTED_KEYS), tie("value"), { minKeys: 1, maxKeys: NESTED_KEYS.length, noNullPrototype: true }),
})).value;

/** One `meta` body: one to four keys of the pool. */
export const meta: fc.Arbitrary<Meta> = fc.dictionary(fc.constantFrom(...META_KEYS), metaValue, { minKeys: 1, maxKeys: 4, noNullPrototype: true });

/** A `meta` of scalars only, where every reading of "merged" agrees: for sequences that test something else. */
export const flatMeta: fc.Arbitrary<Meta> = fc.dictionary(fc.constantFrom(...META_KEYS.slice(0, 3)), scalar, { minKeys: 1, maxKeys: 2, noNullPrototype: true });

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** E11 rule 2 as the spec states it: key by key, a later sent value replaces the stored one. */
export function shallowMerge(stored: Record<string, unknown>, sent: Record<string, unknown>): Record<string, unknown> {
  return { ...stored, ...sent };
}

/** The other reading of "merged": objects under the same key are merged recursively. */
export function deepMerge(stored: Record<string, unknown>, sent: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...stored };
  for (const [k, v] of Object.entries(sent)) out[k] = isPlainObject(v) && isPlainObject(out[k]) ? deepMerge(out[k] as Record<string, unknown>, v) : v;
  return out;
}

// --- Resources / DashboardConfig and DashboardWidget ----------------------------------------

const ADVERTISED_WIDGET_TYPES = ["CHART", "TEXT", "FILTER", "AI", "TIME_GRAIN", "PARENT", "SPACER", "DIVIDER", "CONTAINER"] as const;
/** No longer advertised, still accepted and converted server-side. */
export const LEGACY_TABS_CONTAINER = "TABS_CONTAINER";

const position = fc.record({ x: fc.nat(11), y: fc.nat(40), w: fc.integer({ min: 1, max: 12 }), h: fc.integer({ min: 1, max: 8 }) }, PLAIN);
const maybePosition = fc.option(position, { nil: null });
const responsiveLayouts = fc.record(
  { lg: maybePosition, md: maybePosition, sm: maybePosition, xs: maybePosition, xxs: maybePosition },
  { requiredKeys: [], noNullPrototype: true },
);
const tabs = fc.array(
  fc.record({ title: fc.string({ minLength: 1, maxLength: 10 }), widgetIds: fc.array(fc.constantFrom("w0", "w1", "w2", "w3"), { maxLength: 2 }) }, PLAIN),
  { minLength: 1, maxLength: 3 },
);

/** A config fitting the widget's type; CONTAINER is tabbed (layout "tabs") or not. */
function widgetConfig(type: string): fc.Arbitrary<Record<string, unknown> | null> {
  switch (type) {
    case "CONTAINER":
      return fc.oneof(
        fc.record({ layout: fc.constant("tabs"), tabs }, PLAIN),
        fc.record({ layout: fc.constantFrom("grid", "stack") }, PLAIN),
        fc.constant(null),
      );
    case LEGACY_TABS_CONTAINER:
      return fc.oneof(fc.record({ tabs }, PLAIN), fc.constant(null));
    case "TEXT":
      return fc.record({ text: fc.string({ maxLength: 20 }) }, PLAIN);
    default:
      return fc.option(fc.record({ label: fc.string({ maxLength: 10 }) }, PLAIN), { nil: null });
  }
}

/** The legacy type one time in three: a draft often holds several, each to be converted. */
const widgetType = fc.oneof(
  { arbitrary: fc.constantFrom<string>(...ADVERTISED_WIDGET_TYPES), weight: 2 },
  { arbitrary: fc.constant(LEGACY_TABS_CONTAINER), weight: 1 },
);

const widgetBody = widgetType.chain((type) =>
  fc.record(
    {
      type: fc.constant(type),
      position,
      config: widgetConfig(type),
      style: fc.option(fc.record({ background: fc.constantFrom("#fff", "#eee") }, PLAIN), { nil: null }),
      responsiveLayouts,
    },
    { requiredKeys: ["type", "position"], noNullPrototype: true },
  ),
);

/** Widgets with distinct ids (w0, w1, ...), every type reachable, the legacy one included. */
const widgets = fc.array(widgetBody, { maxLength: 6 }).map((ws) => ws.map((w, i) => ({ id: `w${i}`, ...w })));

const sizes = fc.record(
  { lg: fc.option(fc.nat(2000), { nil: null }), md: fc.option(fc.nat(2000), { nil: null }), sm: fc.nat(2000), xs: fc.nat(2000), xxs: fc.nat(2000) },
  { requiredKeys: [], noNullPrototype: true },
);

export const dashboardConfig = fc.record(
  {
    kind: fc.constantFrom("CLASSIC", "APP", null),
    title: fc.string({ maxLength: 20 }),
    description: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
    widgets,
    layout: fc.option(
      fc.record(
        {
          breakpoints: sizes,
          cols: sizes,
          containerPadding: fc.array(fc.nat(20), { maxLength: 2 }),
          margin: fc.array(fc.nat(20), { maxLength: 2 }),
          rowHeight: fc.integer({ min: 10, max: 60 }),
        },
        { requiredKeys: [], noNullPrototype: true },
      ),
      { nil: null },
    ),
    settings: fc.option(fc.record({ autoRefresh: fc.boolean() }, PLAIN), { nil: null }),
    theme: fc.option(fc.record({ mode: fc.constantFrom("light", "dark") }, PLAIN), { nil: null }),
  },
  { requiredKeys: ["widgets"], noNullPrototype: true },
);

// --- E12: bulk-move batches -----------------------------------------------------------------

/**
 * A batch over named objects: up to 8 picks (so the same object comes twice often: a duplicate)
 * and one destination. The check maps each name to an object it created, a missing one, or one the
 * caller may not move, and each destination to a folder (or "root").
 */
export interface Batch<I extends string, D extends string> {
  items: I[];
  destination: D;
}

export function batch<I extends string, D extends string>(items: readonly I[], destinations: readonly D[]): fc.Arbitrary<Batch<I, D>> {
  return fc.record({ items: fc.array(fc.constantFrom(...items), { minLength: 1, maxLength: 8 }), destination: fc.constantFrom(...destinations) }, PLAIN);
}
