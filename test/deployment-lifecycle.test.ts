import { expect, it } from "vitest";
import { checksNamed } from "../suites/index.js";
import { runAgainstReference } from "./reference-run.js";

/** Rule 8 of the house, issue 21: a deployment is deleted only when it is the run's own, as a read-back shows. */
const checks = checksNamed("documented.resources.deployment-lifecycle");
const deletes = (o: Awaited<ReturnType<typeof runAgainstReference>>) =>
  o.results.flatMap((r) => r.exchanges ?? []).filter((x) => x.method === "DELETE" && /\/api\/v1\/deployments\/[^/]+$/.test(new URL(x.url).pathname));

it("deletes the deployment it created, once the list shows it as its own, and leaves the others", async () => {
  const run = await runAgainstReference(checks);
  const seeded = run.ref.app.store.deployments.filter((d) => !d.name.startsWith("cf-")).length;
  // Passed: it created one (else not verifiable), and its list read showed it gone.
  expect(run.results.map((r) => r.status)).toEqual(["passed"]);
  expect(seeded).toBe(run.ref.app.store.deployments.length);
  expect(run.leftovers).toEqual([]);
  expect(run.ref.app.store.deployments.map((d) => d.name).filter((n) => n.startsWith("cf-"))).toEqual([]);
  expect(run.ref.app.store.deployments.length).toBeGreaterThan(0);
});

it("never deletes a deployment a create's answer names when the list does not show it as the run's", async () => {
  const run = await runAgainstReference(checks, { faults: ["deployment-create-names-another"] });
  expect(run.results.map((r) => [r.status, r.reason])).toEqual([["failed", "read-after-create"]]);
  expect(deletes(run).filter((x) => new URL(x.url).pathname.endsWith("/deployments/1"))).toEqual([]);
  expect(run.ref.app.store.deployments.some((d) => String(d.id) === "1")).toBe(true);
});

it("is skipped without --allow-deployment-lifecycle, and sends nothing", async () => {
  const run = await runAgainstReference(checks, { settings: { deploymentLifecycle: false } });
  expect(run.results.map((r) => r.status)).toEqual(["skipped"]);
  expect(deletes(run)).toEqual([]);
});
