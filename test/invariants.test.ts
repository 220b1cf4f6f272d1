import { describe, expect, it } from "vitest";
import { checksNamed } from "../suites/index.js";
import { runAgainstReference } from "./reference-run.js";

/** Issue 13 §1: an invariant judges what the selected checks send, and says so when nothing applied. */
describe("invariants watch the run's traffic", () => {
  it("with no traffic that carries what the rule is about, an invariant is not exercised, naming what it needed", async () => {
    const checks = checksNamed("env-vars.mask.every-answer", "deployments.list.schema");
    const o = await runAgainstReference(checks);
    const r = o.results.find((x) => x.id === "env-vars.mask.every-answer")!;
    expect([r.status, r.skipKind]).toEqual(["skipped", "not-exercised"]);
    expect(r.message).toMatch(/^not exercised: no answer carried environment variables or deployment settings .*exchanges observed/);
    expect(o.results.map((x) => x.id)).toEqual(["deployments.list.schema", "env-vars.mask.every-answer"]);
  });

  it("fed by the checks selected beside it (discovery and cleanup included), an invariant passes and says on how many exchanges it held", async () => {
    const checks = checksNamed("env-vars.mask.every-answer", "errors.no-5xx.every-exchange", "env-vars.put.listed");
    const o = await runAgainstReference(checks);
    for (const id of ["env-vars.mask.every-answer", "errors.no-5xx.every-exchange"]) {
      const r = o.results.find((x) => x.id === id)!;
      expect([r.status, r.message]).toEqual(["passed", expect.stringMatching(/^held on \d+ of \d+ exchanges$/)]);
    }
  });
});
