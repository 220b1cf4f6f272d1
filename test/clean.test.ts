import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { describeResults, runAgainstReference } from "./reference-run.js";
import { sweepSeeds } from "./sweep-seeds.js";
import { catalogue, itPassesWithVariant, VARIANT_PARTS, variantsPart } from "./clean-variant.js";
import { variants } from "../reference/variants.js";

/** Rule 3 of the house: no false alarms, on the clean reference and on every documented variant (the other parts: test/clean-variants-<k>.test.ts). */
describe.each(sweepSeeds())("the clean reference passes everything, seed %i", (seed) => {
  it("passes every check, writes allowed", async () => {
    const outcome = await runAgainstReference(catalogue, { settings: { seed } });
    expect(describeResults(outcome)).toBe("");
    expect(outcome.results.every((r) => r.status === "passed")).toBe(true);
    expect(outcome.leftovers).toEqual([]);
  });

  it("passes every check against a reference seeded with other ids, names, counts, branches and versions", async () => {
    const outcome = await runAgainstReference(catalogue, { seedShape: "alternate", settings: { seed } });
    expect(describeResults(outcome)).toBe("");
    expect(outcome.results.every((r) => r.status === "passed")).toBe(true);
    expect(outcome.leftovers).toEqual([]);
  });

  for (const v of variantsPart(0)) itPassesWithVariant(v, seed);
});

it("every documented variant is in a part that a file runs (part 0 here, part k in test/clean-variants-<k>.test.ts)", () => {
  const files = readdirSync(new URL(".", import.meta.url)).filter((f) => /^clean-variants-\d+\.test\.ts$/.test(f));
  expect(files.sort()).toEqual(Array.from({ length: VARIANT_PARTS - 1 }, (_, k) => `clean-variants-${k + 1}.test.ts`));
  expect(Array.from({ length: VARIANT_PARTS }, (_, k) => variantsPart(k)).flat().length).toBe(variants.length);
});
