import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { group } from "../core/check/check.js";
import { runChecks } from "../core/run/runner.js";
import { Schemas } from "../core/api/schemas.js";
import { catalogue } from "../suites/index.js";
import { runAgainstReference } from "./reference-run.js";
import { verdict } from "./compared-verdicts.js";

async function verdicts(concurrency: number, opts: { faults?: string[]; groups?: string[] }) {
  const checks = opts.groups ? catalogue.filter((c) => opts.groups!.includes(c.group)) : catalogue;
  const outcome = await runAgainstReference(checks, { faults: opts.faults, settings: { concurrency, runs: 10 } });
  return { verdicts: outcome.results.map(verdict), leftovers: outcome.leftovers };
}

/**
 * Issue 10: a concurrent run reports what a sequential one does, in the same order. The clean
 * reference's whole catalogue is compared in test/reproducibility.test.ts, on the two runs it
 * makes for the requests they send (two full runs fewer per npm test).
 */
describe("--concurrency 8 reports what --concurrency 1 does", () => {
  const cases: { name: string; faults?: string[]; groups?: string[] }[] = [
    { name: "fault cursor-repeats-last-item (read side)", faults: ["cursor-repeats-last-item"], groups: ["workbooks", "pagination", "upsert"] },
    { name: "fault upsert-meta-replaced (writes)", faults: ["upsert-meta-replaced"], groups: ["upsert", "clone", "bulk-move"] },
    { name: "fault staging-disable-ignored (a shared flag)", faults: ["staging-disable-ignored"], groups: ["environments", "staging", "bulk-move"] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const one = await verdicts(1, c);
      const eight = await verdicts(8, c);
      expect(eight.verdicts).toEqual(one.verdicts);
      expect(eight.leftovers).toEqual(one.leftovers);
      if (c.faults) expect(one.verdicts.some((v) => v.status === "failed")).toBe(true);
    });
  }
});

describe("a server that stops answering, under --concurrency", () => {
  it("after three checks in a row lost it, the checks not yet started are not run", async () => {
    const server = createServer(() => undefined); // never answers
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const checks = group(
        "probe",
        Array.from({ length: 20 }, (_, i) => ({
          id: `probe.${i}`,
          spec: "E1",
          level: "MUST" as const,
          title: "probe",
          async run({ api }: any) {
            await api.get("/hang");
          },
        })),
      );
      const outcome = await runChecks(
        checks,
        {
          baseUrl: base,
          token: "t",
          tokens: {},
          fixtures: {},
          writes: false,
          unremovableWrites: false,
          timeoutMs: 200,
          runs: 1,
          seed: 1,
          strict: false,
          concurrency: 4,
        },
        await Schemas.load(),
      );
      expect(outcome.results.map((r) => r.id)).toEqual(checks.map((c) => c.id));
      expect(outcome.results.every((r) => r.status === "errored")).toBe(true);
      const notRun = outcome.results.filter((r) => r.message.startsWith("not run: the server stopped answering"));
      // At most the four that ran at once, and the few started before three had come back, waited out a timeout.
      expect(notRun.length).toBeGreaterThanOrEqual(20 - 4 - 2);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
