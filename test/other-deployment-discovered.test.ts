import { expect, it } from "vitest";
import { runChecks } from "../core/run/runner.js";
import { Schemas } from "../core/api/schemas.js";
import { startReference } from "../reference/server.js";
import { checksNamed } from "../suites/index.js";
import { describeResults, settingsFor } from "./reference-run.js";

/**
 * E12's 404 for an item of another deployment is judged without fixtures.otherDeploymentId too: a
 * root workbook of a deployment the run only discovered is sent to the root through the run's own
 * deployment. Nothing may be written to the discovered deployment, by the check or its cleanup,
 * whether the server refuses the item (clean) or wrongly takes it (the fault).
 */
it.each([
  { faults: [] as string[], variants: [] as string[], status: "passed", reason: undefined },
  { faults: ["bulk-move-other-deployment"], variants: [], status: "failed", reason: "in-failed" },
  // E8 listing reports (and folders, on the blind Perl server) beside workbooks: the item moved is a workbook.
  { faults: [], variants: ["reports-listed-first"], status: "passed", reason: undefined },
])(
  "without fixtures.otherDeploymentId, bulk-move.failures.other-deployment-404 is judged on a discovered deployment ($status, $variants)",
  async ({ faults, variants, status, reason }) => {
    const ref = await startReference({ faults, variants });
    try {
      const settings = settingsFor(ref, { writes: true });
      const { otherDeploymentId: discovered, ...others } = settings.fixtures;
      const sent: string[] = [];
      const outcome = await runChecks(checksNamed("bulk-move.failures.other-deployment-404"), { ...settings, fixtures: others }, await Schemas.load(), {
        onExchange: (x) => sent.push(`${x.method} ${new URL(x.url).pathname}`),
      });
      const [result] = outcome.results;
      expect([result.status, result.reason], describeResults(outcome)).toEqual([status, reason]);
      const writes = sent.filter((s) => !s.startsWith("GET "));
      expect(writes.length).toBeGreaterThan(0);
      expect(writes.filter((s) => s.includes(`/deployments/${discovered}/`))).toEqual([]);
      expect(outcome.leftovers).toEqual([]);
    } finally {
      await ref.close();
    }
  },
);
