import { expect, it } from "vitest";
import { settingsFrom } from "../bin/run-settings.js";
import { runChecks } from "../core/run/runner.js";
import { Schemas } from "../core/api/schemas.js";
import { TEMPLATE_VARIABLE_POOL } from "../core/api/fixed-names.js";
import { startReference } from "../reference/server.js";
import { catalogue } from "../suites/index.js";

/**
 * A server that nests its deployment settings one level deeper ({"data": {"settings": {...}}})
 * than the reference: the checks that change a deployment read the settings through the one
 * reader (suites/lib/deployment-settings.ts settingsIn), so what they change is put back and read
 * back; what is not is a leftover of the report, never silently left (issue 26).
 */
it("a run with every write opt-in against nested settings leaves each deployment's settings as they were, or names them in leftovers", async () => {
  const ref = await startReference({ variants: ["settings-nested"] });
  try {
    const settings = { ...settingsFrom({ runs: 5, seed: 7 }, {}, ref.config()), concurrency: 4 };
    const checks = catalogue.filter((c) => c.group.startsWith("deployment-update"));
    const copy = () => new Map(ref.app.store.deployments.map((d) => [String(d.id), structuredClone(d.settings)]));
    const before = copy();
    const outcome = await runChecks(checks, settings, await Schemas.load());
    expect(outcome.results.filter((r) => r.status === "errored" || r.status === "failed").map((r) => `${r.id}: ${r.message}`)).toEqual([]);
    for (const [id, was] of before) {
      const now = structuredClone(ref.app.store.deployments.find((d) => String(d.id) === id)!.settings) as Record<string, any>;
      // The tool's fixed template variables may stay (announced by the plan); nothing else may differ.
      for (const k of TEMPLATE_VARIABLE_POOL) if (!(k in (was.templateVariables ?? {}))) delete now.templateVariables?.[k];
      if (JSON.stringify(now) !== JSON.stringify(was)) expect(outcome.leftovers.join("\n")).toContain(`deployment ${id}`);
      else expect(now).toEqual(was);
    }
    expect(outcome.leftovers).toEqual([]);
  } finally {
    await ref.close();
  }
});
