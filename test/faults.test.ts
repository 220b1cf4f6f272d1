import { describe, expect, it } from "vitest";
import { catches, caughtBy, faults } from "../reference/faults.js";
import { catalogue } from "../suites/index.js";
import { proveFaults, provenOverSeeds } from "./fault-proof.js";
import { runAgainstReference } from "./reference-run.js";

/** Rule 2 of the house: every check can fail, shown against a named fault of the reference (properties: test/faults-properties.test.ts). */
describe("every check fails against the fault that breaks its rule", () => {
  it("every check of the catalogue is caught by at least one fault", () => {
    const caught = new Set<string>(faults.flatMap(caughtBy));
    const uncaught = catalogue.map((c) => c.id).filter((id) => !caught.has(id));
    expect(uncaught).toEqual([]);
  });

  it("fault names are unique and every caught id is a real check", () => {
    const names = faults.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    const ids = new Set(catalogue.map((c) => c.id));
    expect(faults.flatMap((f) => [...caughtBy(f), ...(f.feeds ?? [])]).filter((id) => !ids.has(id))).toEqual([]);
  });

  it("every spared id is a real check, and none is also caught", () => {
    const ids = new Set(catalogue.map((c) => c.id));
    for (const f of faults) for (const id of f.spares ?? []) expect([id, ids.has(id) && !catches(f, id)]).toEqual([id, true]);
  });

  // A choice the spec leaves open (a fault with `spares`) fails the SHOULD checks, never the MUST beside them.
  for (const fault of faults.filter((f) => f.spares?.length)) {
    it(`${fault.name} leaves ${fault.spares!.join(", ")} passing`, async () => {
      const checks = catalogue.filter((c) => (fault.spares as readonly string[]).includes(c.id));
      const outcome = await runAgainstReference(checks, { faults: [fault.name] });
      expect(outcome.results.filter((r) => r.status !== "passed").map((r) => `${r.id}: ${r.status} ${r.message}`)).toEqual([]);
      expect(outcome.results.length).toBe(checks.length);
    });
  }

  proveFaults(faults.filter((f) => !provenOverSeeds(f)));
});
