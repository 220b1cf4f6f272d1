import { describe, expect, it } from "vitest";
import { variants } from "../reference/variants.js";
import { selectChecks } from "../core/run/select.js";
import { catalogue as everyCheck } from "../suites/index.js";
import { describeResults, runAgainstReference } from "./reference-run.js";
import { sweepSeeds } from "./sweep-seeds.js";

// CONFORMANCE_TEST_CHECKS="workbooks.*,auth.*" narrows the run while a group is being written.
const only = process.env.CONFORMANCE_TEST_CHECKS?.split(",").filter(Boolean);
const catalogue = only ? selectChecks(everyCheck, undefined, only) : everyCheck;

/** Rule 3 of the house: no false alarms, on the clean reference and on every documented variant. */
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

  for (const v of variants) {
    it(`passes every check with the documented variant ${v.name} (${v.description})`, async () => {
      const outcome = await runAgainstReference(catalogue, { variants: [v.name], settings: { seed } });
      // A SHOULD finding the variant declares is the verdict its choice deserves; anything else is a false alarm.
      const finding = (r: (typeof outcome.results)[number]) => r.status === "failed" && r.level === "SHOULD" && (v.shouldFindings ?? []).includes(r.id);
      const bad = outcome.results.filter((r) => (r.status === "failed" || r.status === "errored") && !finding(r));
      expect(
        bad.map((r) => r.id),
        describeResults(outcome),
      ).toEqual([]);
      // A gateway's 429 or 503 was met, waited out and counted for the report, never a check's verdict.
      if (v.transient) expect(Object.values(outcome.transients?.retried ?? {}).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      // A declared finding that passes is a stale declaration (or a SHOULD check that lost its teeth);
      // a property may not draw the case that shows the choice on every seed (test/sweep-seeds.ts).
      expect(outcome.results.filter((r) => (v.shouldFindings ?? []).includes(r.id) && r.status === "passed" && r.kind !== "property").map((r) => r.id)).toEqual(
        [],
      );
    });
  }
});
