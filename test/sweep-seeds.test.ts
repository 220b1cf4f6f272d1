import { describe, expect, it } from "vitest";
import { SWEEP_SEEDS, sweepSeeds, variantRuns } from "./sweep-seeds.js";

describe("the seed sweep", () => {
  it("runs every seed when asked, one pinned seed when named", () => {
    expect(sweepSeeds({ CONFORMANCE_SWEEP: "all" })).toEqual(SWEEP_SEEDS);
    expect(sweepSeeds({ CONFORMANCE_TEST_SEED: "17" })).toEqual([17]);
    expect(SWEEP_SEEDS.length).toBeGreaterThanOrEqual(10);
    expect(new Set(SWEEP_SEEDS).size).toBe(SWEEP_SEEDS.length);
  });

  it("turns with the hour, so that consecutive hours of npm test cover every seed", () => {
    const hour = 3_600_000;
    const seen = new Set(Array.from({ length: SWEEP_SEEDS.length }, (_, i) => sweepSeeds({}, 1_700_000_000_000 + i * hour)[0]));
    expect([...seen].sort()).toEqual([...SWEEP_SEEDS].sort());
  });

  it("draws the variants' property cases as the clean runs do in the sweep, fewer in npm test", () => {
    expect(variantRuns({ CONFORMANCE_SWEEP: "all" })).toBe(25);
    expect(variantRuns({})).toBeLessThan(25);
  });
});
