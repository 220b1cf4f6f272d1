import { afterEach, describe, expect, it } from "vitest";
import type { Check } from "../core/check/check.js";
import { runChecks } from "../core/run/runner.js";
import { pathTo } from "../core/transport/client.js";
import { Schemas } from "../core/api/schemas.js";
import { e14 } from "../reference/e14/state.js";
import { type RunningReference, startReference } from "../reference/server.js";
import { settingsFor } from "./reference-run.js";

/**
 * Issue 26, section 3: the door enters every accepted write in the ledger of whoever sent it, with
 * its undo, whatever that code registered itself. A check written for this test writes and
 * registers nothing: the run must still put back what it changed and remove what it made, or name
 * it in leftovers with the read that shows it; and a leftover gone by the time of the report (read
 * once more) is not named.
 */

const UNNAMED = "door-ledger-no-prefix";

/** Writes of every kind the ledger knows, none with an undo of its own. */
const writesAndForgets: Check = {
  id: "test.door.writes-and-forgets",
  group: "test",
  kind: "example",
  spec: "E6",
  level: "MUST",
  title: "writes without registering any cleanup (a test's check)",
  needs: ["writes", "admin-writes", "deployment-changes", "fixture:mutableDeployment"],
  async run({ api, scratch, fixture }) {
    const dep = fixture("mutableDeployment").id;
    // A policy named as the run names things (removed), and one not (reported: its read does not show it as the run's).
    for (const name of [scratch.name("policy"), UNNAMED])
      expect((await api.call("createPolicy", {}, { body: { name, action: "Read" } })).status).toBeLessThan(300);
    const tenant: any = (await api.call("getTenantSettings")).body;
    expect((await api.call("updateTenantSettings", {}, { body: { sessionTimeoutMinutes: (tenant.sessionTimeoutMinutes ?? 30) + 7 } })).status).toBe(200);
    const settings: any = (await api.call("getDeploymentSettings", { deploymentId: dep })).body;
    const hold = (settings.data ?? settings).releaseChannelVersionHold;
    expect((await api.call("updateDeployment", { deploymentId: dep }, { body: { releaseChannelVersionHold: !hold } })).status).toBe(200);
  },
};

/** Moves the deployment to the latest version of its channel (which the server does not hold), registering nothing. */
const movesToLatest: Check = {
  ...writesAndForgets,
  id: "test.door.moves-to-latest",
  title: "moves a deployment to its channel's latest version without registering any cleanup (a test's check)",
  needs: ["writes", "deployment-changes", "fixture:mutableDeployment"],
  async run({ api, fixture }) {
    const dep = fixture("mutableDeployment").id;
    const versions = (await api.call("listVersions", { deploymentId: dep })).body.data!;
    const current = versions.find((v) => v.isCurrent)!;
    const latest = versions.find((v) => v.isLatestInChannel && v.releaseChannel === current.releaseChannel)!;
    expect(latest.version).not.toBe(current.version);
    expect((await api.call("updateDeployment", { deploymentId: dep }, { body: { releaseChannelVersion: latest.version } })).status).toBe(200);
  },
};

/** Sets a template variable outside the tool's fixed names (an unremovable write), registering nothing. */
const leavesAVariable: Check = {
  ...writesAndForgets,
  id: "test.door.leaves-a-variable",
  title: "sets a template variable outside the tool's fixed names (a test's check)",
  needs: ["writes", "deployment-changes", "fixture:mutableDeployment"],
  async run({ api, fixture }) {
    const body = { templateVariables: { LEFT_BEHIND: "x" } };
    expect((await api.call("updateDeployment", { deploymentId: fixture("mutableDeployment").id }, { body })).status).toBe(200);
  },
};

let ref: RunningReference | undefined;
afterEach(async () => {
  await ref?.close();
  ref = undefined;
});

async function read(r: RunningReference, path: string): Promise<any> {
  const res = await fetch(r.url + path, { headers: { authorization: `Bearer ${(r.config() as any).token}` } });
  return res.json();
}

const policyNames = async (r: RunningReference) => ((await read(r, pathTo("listPolicies"))).data ?? []).map((p: any) => p.name);

describe("the door's ledger", () => {
  it("puts back settings a check changed and removes what it made, with no undo registered; what is not the run's is named with its read and a curl line", async () => {
    ref = await startReference();
    const dep = String((ref.config() as any).fixtures.mutableDeploymentId);
    const before = { tenant: await read(ref, pathTo("getTenantSettings")), settings: await read(ref, pathTo("getDeploymentSettings", { deploymentId: dep })) };
    const outcome = await runChecks([writesAndForgets], settingsFor(ref, { seed: 11, concurrency: 1 }), await Schemas.load());
    expect(outcome.results.map((r) => [r.id, r.status, r.message])).toEqual([[writesAndForgets.id, "passed", expect.anything()]]);
    expect(await read(ref, pathTo("getTenantSettings"))).toEqual(before.tenant);
    expect(await read(ref, pathTo("getDeploymentSettings", { deploymentId: dep }))).toEqual(before.settings);
    expect((await policyNames(ref)).filter((n: string) => n.startsWith("cf-"))).toEqual([]);
    const unnamed = ((await read(ref, pathTo("listPolicies"))).data ?? []).find((p: any) => p.name === UNNAMED);
    expect(unnamed).toBeDefined();
    expect(outcome.leftovers).toEqual([
      expect.stringMatching(new RegExp(`createPolicy ${unnamed.id} .*its read answered 200.*curl -X DELETE '.*/policies/${unnamed.id}'`)),
    ]);
  });

  it("reads a settings leftover once more before the report: a variable someone removed meanwhile is not named, one still there is", async () => {
    for (const removedMeanwhile of [true, false]) {
      ref = await startReference();
      const r = ref;
      const dep = r.app.store.deployments.find((d) => String(d.id) === String((r.config() as any).fixtures.mutableDeploymentId))!;
      let reads = 0;
      // Someone else removes the variable once the cleanup has read it back (the settings' second read: the first is the door's before the write).
      const outcome = await runChecks([leavesAVariable], settingsFor(r, { seed: 14, concurrency: 1 }), await Schemas.load(), {
        onExchange: (x) => {
          if (
            x.method === "GET" &&
            new URL(x.url).pathname === pathTo("getDeploymentSettings", { deploymentId: String(dep.id) }) &&
            ++reads === 2 &&
            removedMeanwhile
          )
            delete dep.settings.templateVariables.LEFT_BEHIND;
        },
      });
      expect(outcome.results.map((x) => x.status)).toEqual(["passed"]);
      expect(outcome.leftovers).toEqual(
        removedMeanwhile ? [] : [expect.stringMatching(/templateVariables\.LEFT_BEHIND was added, a name outside the tool's fixed ones/)],
      );
      await r.close();
      ref = undefined;
    }
  });

  it("puts back a field the server derived from another: the hold a version not its channel's latest takes, when the run's write had not changed it", async () => {
    // The alternate seed runs a version its channel does not mark latest, not held: the put-back of
    // the version alone would hold it there (published docs), which the run never asked for.
    ref = await startReference({ seedShape: "alternate" });
    const dep = String((ref.config() as any).fixtures.mutableDeploymentId);
    const before = await read(ref, pathTo("getDeploymentSettings", { deploymentId: dep }));
    expect((before.data ?? before).releaseChannelVersionHold).toBe(false);
    const outcome = await runChecks([movesToLatest], settingsFor(ref, { seed: 13, concurrency: 1 }), await Schemas.load());
    expect(outcome.results.map((r) => [r.id, r.status, r.message])).toEqual([[movesToLatest.id, "passed", expect.anything()]]);
    expect(outcome.leftovers).toEqual([]);
    expect(await read(ref, pathTo("getDeploymentSettings", { deploymentId: dep }))).toEqual(before);
  });

  it("reads a leftover once more before the report: one removed meanwhile by someone else is not named", async () => {
    ref = await startReference();
    const r = ref;
    const policies = () => [...(e14(r.app.store).resources.get("policies")?.values() ?? [])];
    // Someone else removes the unnamed policy just after the cleanup has read it (and found it not the run's).
    const outcome = await runChecks([writesAndForgets], settingsFor(r, { seed: 12, concurrency: 1 }), await Schemas.load(), {
      onExchange: (x) => {
        if (x.method !== "GET" || x.status !== 200) return;
        for (const byId of policies())
          for (const [id, p] of byId) if (p.name === UNNAMED && new URL(x.url).pathname === pathTo("getPolicy", { policyId: id })) byId.delete(id);
      },
    });
    expect(outcome.results.map((x) => x.status)).toEqual(["passed"]);
    expect(await policyNames(r)).not.toContain(UNNAMED);
    expect(outcome.leftovers).toEqual([]);
  });
});
