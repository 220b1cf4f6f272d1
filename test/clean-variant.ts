import { expect, it } from "vitest";
import { selectChecks } from "../core/run/select.js";
import type { Variant } from "../reference/variant.js";
import { variants } from "../reference/variants.js";
import { catalogue as everyCheck } from "../suites/index.js";
import { describeResults, runAgainstReference } from "./reference-run.js";
import { variantRuns } from "./sweep-seeds.js";

// CONFORMANCE_TEST_CHECKS="workbooks.*,auth.*" narrows the run while a group is being written.
const only = process.env.CONFORMANCE_TEST_CHECKS?.split(",").filter(Boolean);
export const catalogue = only ? selectChecks(everyCheck, undefined, only) : everyCheck;

/** How many files the documented variants' full runs are dealt into. */
export const VARIANT_PARTS = 4;

/**
 * The documented variants dealt into VARIANT_PARTS parts (test/clean.test.ts runs part 0,
 * test/clean-variants-<k>.test.ts part k): a file's runs go one after another in one worker, so
 * parts of nine or ten runs (about 40 s each) let the workers share them out evenly to the end;
 * two halves of nineteen ran on alone at the end of a fresh clone's run, one core idle.
 */
export const variantsPart = (part: number): Variant[] => variants.filter((_, i) => i % VARIANT_PARTS === part);

/** Rule 3 of the house: no false alarm with a documented variant; a SHOULD finding it declares is the verdict its choice deserves. */
export function itPassesWithVariant(v: Variant, seed: number): void {
  it(`passes every check with the documented variant ${v.name} (${v.description})`, async () => {
    const outcome = await runAgainstReference(catalogue, { variants: [v.name], settings: { seed, runs: variantRuns() } });
    // A SHOULD finding the variant declares is the verdict its choice deserves; anything else is a false alarm.
    const finding = (r: (typeof outcome.results)[number]) => r.status === "failed" && r.level === "SHOULD" && (v.shouldFindings ?? []).includes(r.id);
    const bad = outcome.results.filter((r) => (r.status === "failed" || r.status === "errored") && !finding(r));
    expect(
      bad.map((r) => r.id),
      describeResults(outcome),
    ).toEqual([]);
    // What the run made or changed is undone, whichever shape the variant answers in.
    expect(outcome.leftovers).toEqual([]);
    // A gateway's 429 or 503 was met, waited out and counted for the report, never a check's verdict.
    if (v.transient) expect(Object.values(outcome.transients?.retried ?? {}).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    // A declared finding that passes is a stale declaration (or a SHOULD check that lost its teeth);
    // a property may not draw the case that shows the choice on every seed (test/sweep-seeds.ts).
    expect(outcome.results.filter((r) => (v.shouldFindings ?? []).includes(r.id) && r.status === "passed" && r.kind !== "property").map((r) => r.id)).toEqual(
      [],
    );
  });
}
