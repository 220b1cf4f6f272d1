import { expect, it } from "vitest";
import { runChecks } from "../core/run/runner.js";
import { Schemas } from "../core/api/schemas.js";
import { startReference } from "../reference/server.js";
import { catalogue } from "../suites/index.js";
import { describeResults, settingsFor } from "./reference-run.js";

/**
 * The checks of read-only access (Authentication 4) need a folder the readOnly key reads but may not
 * edit. A config that names none no longer skips them: the folder is found by a create the readOnly
 * key is refused (403) in it, and it is the one the config would have named.
 */
it("without fixtures.readOnlyFolderId, the read-only folder is found black-box and every check that needs it is judged", async () => {
  const ref = await startReference({});
  try {
    const settings = settingsFor(ref, { writes: true });
    // Passing shows the folder found is read-only for the key: forbidden-reported needs its item refused (403) and kept.
    const { readOnlyFolderId: _named, ...others } = settings.fixtures;
    const checks = catalogue.filter((c) =>
      ["reports.placement.read-access-suffices", "bulk-delete.items.forbidden-reported", "upsert.access.update-needs-edit"].includes(c.id),
    );
    expect(checks).toHaveLength(3);
    const outcome = await runChecks(checks, { ...settings, fixtures: others }, await Schemas.load());
    expect(
      outcome.results.map((r) => [r.id, r.status]),
      describeResults(outcome),
    ).toEqual(checks.map((c) => [c.id, "passed"]));
    expect(outcome.leftovers).toEqual([]);
  } finally {
    await ref.close();
  }
});
