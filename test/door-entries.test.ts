import { afterEach, describe, expect, it } from "vitest";
import type { Check } from "../core/check/check.js";
import { runChecks } from "../core/run/runner.js";
import { Schemas } from "../core/api/schemas.js";
import { ENV_VAR_POOL } from "../core/api/fixed-names.js";
import { e14 } from "../reference/e14/state.js";
import { type RunningReference, startReference } from "../reference/server.js";
import { settingsFor } from "./reference-run.js";

/**
 * Issue 26, section 3, for the classes whose undo is no delete of what they made nor a record put
 * back (core/ledger/door-entries.ts): a check written for this test sets environment variables,
 * creates a deployment and writes into it, starts dev mode and a dbt sync and creates a branch,
 * and undoes nothing. The door undoes what the table has an undo for, removes the deployment, and
 * names the rest in leftovers: an env var outside the tool's fixed names, a branch whose delete
 * needs what the door cannot know (its name as a query).
 */

const OUTSIDE_POOL = "CF_DOOR_ENTRIES_LEFT";

const writesOfEveryClass: Check = {
  id: "test.door.writes-of-every-class",
  group: "test",
  kind: "example",
  spec: "E14",
  level: "MUST",
  title: "writes of the unremovable, lifecycle and never classes without registering any cleanup (a test's check)",
  needs: ["writes", "unremovable-writes", "deployment-lifecycle", "fixture:deployment"],
  async run({ api, scratch, fixture }) {
    const deploymentId = fixture("deployment").id;
    const ok = async (p: Promise<{ status: number }>) => expect((await p).status).toBeLessThan(300);
    const env_variables = [ENV_VAR_POOL[0]!, OUTSIDE_POOL].map((name) => ({ name, value: scratch.name("value") }));
    await ok(api.call("setEnvVars", { deploymentId }, { body: { env_variables } }));
    const made = await api.call("createDeployment", {}, { body: { name: scratch.name("deployment") } });
    expect(made.status).toBe(201);
    // Written into the run's own deployment: goes with it.
    await ok(api.call("advanceCreationStep", { deploymentId: String((made.body as { id: number }).id) }, { body: {} }));
    const branch = scratch.slug("branch");
    await ok(api.call("createBranch", { deploymentId }, { body: { name: branch } }));
    await ok(api.call("startDevMode", { deploymentId }, { body: { branchName: branch } }));
    await ok(api.call("startDbtSync", { deploymentId }, { body: {} }));
  },
};

/** Starts dev mode on a branch of its own and undoes both itself, within its run (not at cleanup). */
const undoesItself: Check = {
  ...writesOfEveryClass,
  id: "test.door.undoes-itself",
  title: "starts dev mode and stops it, creates a branch and deletes it, in its own run (a test's check)",
  needs: ["writes", "fixture:deployment"],
  async run({ api, scratch, fixture }) {
    const deploymentId = fixture("deployment").id;
    const ok = async (p: Promise<{ status: number }>) => expect((await p).status).toBeLessThan(300);
    const branch = scratch.slug("branch");
    await ok(api.call("createBranch", { deploymentId }, { body: { name: branch } }));
    await ok(api.call("startDevMode", { deploymentId }, { body: { branchName: branch } }));
    await ok(api.call("stopDevMode", { deploymentId }));
    await ok(api.call("deleteBranch", { deploymentId }, { query: { branchName: branch } }));
  },
};

let ref: RunningReference | undefined;
afterEach(async () => {
  await ref?.close();
  ref = undefined;
});

describe("the door's entries of the other classes", () => {
  it("undoes what the table has an undo for, removes the run's deployment, and names the rest with its read and a curl line", async () => {
    ref = await startReference();
    const store = ref.app.store;
    const deployments = store.deployments.length;
    const outcome = await runChecks([writesOfEveryClass], settingsFor(ref, { seed: 15, concurrency: 1 }), await Schemas.load());
    expect(outcome.results.map((r) => [r.id, r.status, r.message])).toEqual([[writesOfEveryClass.id, "passed", expect.anything()]]);
    // The deployment is gone, dev mode stopped, the sync cancelled (the seed's syncs have all ended).
    expect(store.deployments.length).toBe(deployments);
    expect([...e14(store).devMode.values()].flatMap((d) => [...d.keys()]).filter((b) => b.startsWith("cf-"))).toEqual([]);
    expect(e14(store).dbtJobs.filter((j) => j.status === "running")).toEqual([]);
    // Left and named: the env var outside the pool (not the pool's own), the branch.
    expect(outcome.leftovers).toHaveLength(1);
    const [left] = outcome.leftovers;
    expect(left).toMatch(new RegExp(`environment variable ${OUTSIDE_POOL} was added .*curl '.*/env-vars'`));
    expect(left).not.toContain(ENV_VAR_POOL[0]);
    expect(left).toMatch(/createBranch .* was not undone: DELETE .*\/branches answered 400.*curl -X DELETE .*\(naming cf-/);
  });

  it("takes the caller's own undo sent within its run (a DELETE with no name) as the undo, not as a write of its own", async () => {
    ref = await startReference();
    const outcome = await runChecks([undoesItself], settingsFor(ref, { seed: 17, concurrency: 1 }), await Schemas.load());
    expect(outcome.results.map((r) => [r.id, r.status, r.message])).toEqual([[undoesItself.id, "passed", expect.anything()]]);
    expect(outcome.leftovers).toEqual([]);
  });
});
