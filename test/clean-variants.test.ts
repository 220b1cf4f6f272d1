import { describe } from "vitest";
import { sweepSeeds } from "./sweep-seeds.js";
import { itPassesWithVariant, variantsHalf } from "./clean-variant.js";

/** Rule 3 of the house: the second half of the documented variants (the first, and the clean reference: test/clean.test.ts). */
describe.each(sweepSeeds())("the reference with a documented variant passes everything, seed %i", (seed) => {
  for (const v of variantsHalf(1)) itPassesWithVariant(v, seed);
});
