import { describe } from "vitest";
import { sweepSeeds } from "./sweep-seeds.js";
import { itPassesWithVariant, variantsPart } from "./clean-variant.js";

/** Rule 3 of the house: part 2 of the documented variants (see variantsPart; part 0 and the clean reference: test/clean.test.ts). */
describe.each(sweepSeeds())("the reference with a documented variant passes everything, seed %i", (seed) => {
  for (const v of variantsPart(2)) itPassesWithVariant(v, seed);
});
