import { describe, expect, it } from "vitest";
import type { CheckResult } from "../core/runner.js";
import { catalogue } from "../suites/index.js";
import { runAgainstReference } from "./reference-run.js";

/** A result as a reader compares two runs: what was judged and why, not how long it took. */
function verdict(r: CheckResult) {
  const timeless = (s: string | undefined) => s?.replace(/\d+(\.\d+)? ?ms\b/g, "N ms");
  return { id: r.id, status: r.status, skipKind: r.skipKind, message: timeless(r.message), expected: timeless(r.expected), got: timeless(r.got), recurrence: r.recurrence };
}

async function verdicts(concurrency: number, opts: { faults?: string[]; groups?: string[] }) {
  const checks = opts.groups ? catalogue.filter((c) => opts.groups!.includes(c.group)) : catalogue;
  const outcome = await runAgainstReference(checks, { faults: opts.faults, settings: { concurrency, runs: 10 } });
  return { verdicts: outcome.results.map(verdict), leftovers: outcome.leftovers };
}

/** Issue 10: a concurrent run reports what a sequential one does, in the same order. */
describe("--concurrency 8 reports what --concurrency 1 does", () => {
  const cases: { name: string; faults?: string[]; groups?: string[] }[] = [
    { name: "the clean reference, whole catalogue" },
    { name: "fault cursor-repeats-last-item (read side)", faults: ["cursor-repeats-last-item"], groups: ["workbooks", "properties", "upsert"] },
    { name: "fault upsert-meta-replaced (writes)", faults: ["upsert-meta-replaced"], groups: ["upsert", "clone", "properties-workspace", "model"] },
    { name: "fault staging-disable-ignored (a shared flag)", faults: ["staging-disable-ignored"], groups: ["environments", "staging", "properties", "bulk-move"] },
  ];
  for (const c of cases) {
    it(c.name, { timeout: 240_000 }, async () => {
      const one = await verdicts(1, c);
      const eight = await verdicts(8, c);
      expect(eight.verdicts).toEqual(one.verdicts);
      expect(eight.leftovers).toEqual(one.leftovers);
      if (c.faults) expect(one.verdicts.some((v) => v.status === "failed")).toBe(true);
    });
  }
});
