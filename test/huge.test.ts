import { describe, expect, it } from "vitest";
import type { CheckId } from "../core/model/ids.js";
import { catalogue } from "../suites/index.js";
import { describeResults, runAgainstReference } from "./reference-run.js";

/** The checks that walk lists: what a huge tenant makes long (by group, not by an id pattern that a rename would leave stale). */
const LIST_GROUPS = ["deployments", "workbooks", "environments", "env-vars", "pagination"];
const listChecks = catalogue.filter((c) => LIST_GROUPS.includes(c.group));

/** Issue 10: a tenant with 10,000 workbooks and 1,000 deployments (the reference's "huge" seed). */
describe("a huge tenant", () => {
  it("a deployment the run creates is found in the deployments list, whose thousand entries are paged by offset (no false alarm)", async () => {
    const check = catalogue.filter((c) => c.id === ("documented.resources.deployment-lifecycle" satisfies CheckId));
    const outcome = await runAgainstReference(check, { seedShape: "huge", settings: { runs: 5, timeoutMs: 20_000 } });
    expect(describeResults(outcome)).toBe("");
    expect(outcome.results.map((r) => r.status)).toEqual(["passed"]);
    // Read to the end of the list, where the new deployment is: not cut short at a page budget.
    expect(outcome.results[0].requests ?? 0).toBeGreaterThan(10);
  });

  it("the list and pagination checks pass, within the default page budget", async () => {
    const started = performance.now();
    expect(listChecks.map((c) => c.id)).toContain("pagination.cursor.any-page-size" satisfies CheckId);
    const outcome = await runAgainstReference(listChecks, { seedShape: "huge", settings: { runs: 10, concurrency: 4, timeoutMs: 20_000 } });
    expect(describeResults(outcome)).toBe("");
    expect(outcome.results.every((r) => r.status === "passed")).toBe(true);
    expect(outcome.ref.app.store.deployments.length).toBe(1000);
    expect([...outcome.ref.app.store.items.values()].filter((i) => i.type === "WORKBOOK" && i.deploymentId === 5001).length).toBeGreaterThanOrEqual(10_000);
    // Walks are linear: about 10,000 workbooks at 100 a page, not a request per item.
    const total = outcome.results.reduce((n, r) => n + (r.requests ?? 0), 0);
    expect(total).toBeLessThan(5_000);
    console.log(`huge tenant: ${listChecks.length} list checks, ${total} requests, ${Math.round(performance.now() - started)} ms`);
  });

  it("a walk that reaches --max-pages is partial: said so, never a failure", async () => {
    const outcome = await runAgainstReference(listChecks, { seedShape: "huge", settings: { runs: 5, concurrency: 4, timeoutMs: 20_000, maxPages: 20 } });
    const bad = outcome.results.filter((r) => r.status === "failed" || r.status === "errored" || r.status === "blocked");
    expect(
      bad.map((r) => r.id),
      describeResults(outcome),
    ).toEqual([]);
    const partial = outcome.results.filter((r) => r.status === "skipped" && r.skipKind === "not-exercised" && /partial walk/.test(r.message));
    expect(partial.map((r) => r.id)).toEqual(expect.arrayContaining(["workbooks.list.cursor-walk", "workbooks.list.count-matches-walk"]));
    // The deployments walk shrinks its pages to the budget rather than stop part-way.
    expect(outcome.results.find((r) => r.id === "deployments.list.total-consistent")?.status).toBe("passed");
    for (const r of outcome.results) expect(r.requests ?? 0).toBeLessThanOrEqual(20 * 6 + 50);
  });
});
