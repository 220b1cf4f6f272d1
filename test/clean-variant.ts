import { expect, it } from "vitest";
import { selectChecks } from "../core/run/select.js";
import type { Variant } from "../reference/variant.js";
import { variants } from "../reference/variants.js";
import { catalogue as everyCheck } from "../suites/index.js";
import { describeResults, runAgainstReference } from "./reference-run.js";

// CONFORMANCE_TEST_CHECKS="workbooks.*,auth.*" narrows the run while a group is being written.
const only = process.env.CONFORMANCE_TEST_CHECKS?.split(",").filter(Boolean);
export const catalogue = only ? selectChecks(everyCheck, undefined, only) : everyCheck;

/**
 * The documented variants in two halves (test/clean.test.ts runs the first, test/clean-variants.test.ts
 * the second), so that their full runs, one after another within a file, share the test workers.
 */
export const variantsHalf = (half: 0 | 1): Variant[] => variants.filter((_, i) => i % 2 === half);

/** Rule 3 of the house: no false alarm with a documented variant; a SHOULD finding it declares is the verdict its choice deserves. */
export function itPassesWithVariant(v: Variant, seed: number): void {
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
