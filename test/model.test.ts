import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dashboardConfig, deepMerge, dressSlug, flatMeta, meta, shallowMerge, slugVariant } from "../generators/workspace.js";
import { expectedBatch, type ItemFacts } from "../suites/bulk-move/outcome.js";

/** The tester's own models: a wrong expectation here would be a false alarm against every server. */

const folder: ItemFacts = { folder: true, missing: false };
const workbook: ItemFacts = { folder: false, missing: false };
const gone: ItemFacts = { folder: false, missing: true };
// A at the root holds B, which holds W; C at the root.
const before = new Map<string, string | null>([
  ["A", null],
  ["B", "A"],
  ["C", null],
  ["W", "B"],
]);
const facts = new Map<string, ItemFacts>([
  ["A", folder],
  ["B", folder],
  ["C", folder],
  ["W", workbook],
  ["gone", gone],
]);

describe("the expected outcome of a bulk move", () => {
  it("answers each distinct item once, in the order of first occurrence", () => {
    const out = expectedBatch(["W", "C", "W", "gone", "C"], null, before, facts, true);
    expect(out.order).toEqual(["W", "C", "gone"]);
    expect(out.outcomes.get("W")).toEqual({ moved: true });
    expect(out.outcomes.get("gone")).toEqual({ moved: false, statuses: [404] });
  });

  it("refuses a folder into itself or its descendant with 400 and moves the rest", () => {
    const out = expectedBatch(["A", "B", "C", "W"], "B", before, facts, true);
    expect(out.outcomes.get("A")).toEqual({ moved: false, statuses: [400] });
    expect(out.outcomes.get("B")).toEqual({ moved: false, statuses: [400] });
    expect(out.outcomes.get("C")).toEqual({ moved: true });
    expect(out.after.get("C")).toBe("B");
    expect(out.after.get("A")).toBe(null);
  });

  it("applies items one at a time: a folder moved earlier counts for the later ones", () => {
    const out = expectedBatch(["A", "C"], "C", before, facts, true);
    expect(out.outcomes.get("A")).toEqual({ moved: true });
    expect(out.outcomes.get("C")).toEqual({ moved: false, statuses: [400] });
    expect(out.after.get("A")).toBe("C");
  });

  it("moves nothing for a caller who may move nothing, allowing each status that applies", () => {
    const out = expectedBatch(["gone", "W", "B"], "B", before, facts, false);
    expect(out.outcomes.get("gone")).toEqual({ moved: false, statuses: [404, 403] });
    expect(out.outcomes.get("W")).toEqual({ moved: false, statuses: [403] });
    expect(out.outcomes.get("B")).toEqual({ moved: false, statuses: [403, 400] });
    expect(out.after).toEqual(before);
  });

  it("never moves a folder under itself, whatever the batch", () => {
    const handles = ["A", "B", "C", "W", "gone"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...handles), { maxLength: 8 }), fc.constantFrom(null, "A", "B", "C"), (items, dest) => {
        const { after } = expectedBatch(items, dest, before, facts, true);
        for (const h of ["A", "B", "C"]) {
          const seen = new Set<string>();
          for (let cur = after.get(h) ?? null; cur !== null; cur = after.get(cur) ?? null) {
            expect(cur).not.toBe(h);
            expect(seen.has(cur)).toBe(false);
            seen.add(cur);
          }
        }
      }),
    );
  });
});

describe("the workspace generators", () => {
  it("dress a slug so that trimming and lowercasing give it back", () => {
    fc.assert(fc.property(slugVariant, (v) => dressSlug("cf-k3x-slug-12", v).trim().toLowerCase() === "cf-k3x-slug-12"));
  });

  it("make bodies that survive JSON unchanged (plain objects, no undefined, no null in meta)", () => {
    const json = (x: unknown) => JSON.parse(JSON.stringify(x));
    fc.assert(
      fc.property(
        meta,
        flatMeta,
        dashboardConfig,
        (m, f, d) => isDeepStrictEqual(json(m), m) && isDeepStrictEqual(json(f), f) && isDeepStrictEqual(json(d), d) && !JSON.stringify(m).includes("null"),
      ),
    );
  });

  it("merge key by key, or recursively, and agree on flat metas", () => {
    expect(shallowMerge({ a: { x: 1, y: 2 }, b: 1 }, { a: { x: 3 } })).toEqual({ a: { x: 3 }, b: 1 });
    expect(deepMerge({ a: { x: 1, y: 2 }, b: 1 }, { a: { x: 3 } })).toEqual({ a: { x: 3, y: 2 }, b: 1 });
    fc.assert(fc.property(flatMeta, flatMeta, (a, b) => isDeepStrictEqual(shallowMerge(a, b), deepMerge(a, b))));
  });
});
