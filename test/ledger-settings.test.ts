import { HANG_GUARD, runAgainstReference } from "./reference-run.js";
import { describe, expect, it } from "vitest";
import { runChecks } from "../core/run/runner.js";
import { OPT_INS, type RunSettings } from "../core/api/settings.js";
import { pathTo } from "../core/transport/client.js";
import type { OperationName } from "../core/api/operations.js";
import { Schemas } from "../core/api/schemas.js";
import { startReference } from "../reference/server.js";
import { TEMPLATE_VARIABLE_POOL } from "../core/api/fixed-names.js";
import { catalogue } from "../suites/index.js";
import { apiSnapshot, entryCount, firstDeployment, recordCount, snapshotDifferences } from "./api-snapshot.js";
import { startIndependentServer as startFourth } from "./independent-server-4/server.js";
import { startManyOperations } from "./many-operations-server.js";

/**
 * Issue 26, "What must show", second bullet: after a run with every write opt-in, every collection
 * and every settings-like record (a deployment's settings read, which holds E6's fields and its
 * template variables; the branches list with its staging flags; the tenant settings; users; user
 * attributes; environment variables), read through each server's own API, is as before apart from
 * the tool's announced fixed names; or the run's `leftovers` names it, with the read that shows it.
 * The servers: the reference, one that wraps settings answers one level deeper (`settings-nested`),
 * the reference behind a document of many extra operations, and the fourth independent server (the
 * first three: test/ledger-independent.test.ts, in its run with every opt-in).
 */

interface Target {
  url: string;
  token: string;
  close(): Promise<void>;
  /** What the user would configure for this server: the reference's --write-config, else nothing but the deployment to change. */
  fixtures?: RunSettings["fixtures"];
  tokens?: RunSettings["tokens"];
}

const reference =
  (variants: string[] = []) =>
  async (): Promise<Target> => {
    const ref = await startReference({ variants });
    const c = ref.config() as any;
    return { url: c.baseUrl, token: c.token, tokens: c.tokens, fixtures: c.fixtures, close: () => ref.close() };
  };

const servers: { name: string; start: () => Promise<Target> }[] = [
  { name: "reference", start: reference() },
  { name: "reference settings-nested", start: reference(["settings-nested"]) },
  { name: "many-operations", start: startManyOperations },
  // Independent servers 1 to 3: test/ledger-independent.test.ts runs them with every opt-in and compares the records.
  { name: "independent-server-4", start: () => startFourth() },
];

/**
 * Where a leftover names a difference: an entry of a list by its id; a record (or a read that stopped
 * answering) by its deployment (the id in a sentence or in the read's path), a tenant one by its
 * read's path.
 */
function named(difference: string, leftovers: string[]): boolean {
  const dep = /^deployment (\S+) /.exec(difference)?.[1];
  const op = (/^(?:deployment \S+ )?(\w+):/.exec(difference)?.[1] ?? "") as OperationName;
  const id = /: (?:added|removed|changed) (\S+)/.exec(difference)?.[1];
  const hints =
    id !== undefined && id !== "record" && id !== "unreadable"
      ? [id]
      : dep !== undefined
        ? [`deployment ${dep}`, `${pathTo("listDeployments")}/${dep}`]
        : [pathTo(op)];
  return leftovers.some((l) => hints.some((h) => l.includes(h)));
}

describe.each(servers)("every write opt-in against $name", ({ start }) => {
  it("leaves every collection and settings-like record as found (fixed names aside), or names it in leftovers", async () => {
    const t = await start();
    try {
      const settings: RunSettings = {
        baseUrl: t.url,
        token: t.token,
        tokens: t.tokens ?? {},
        fixtures: t.fixtures ?? { mutableDeploymentId: await firstDeployment(t.url, t.token) },
        writes: true,
        unremovableWrites: true,
        deploymentChanges: true,
        adminWrites: true,
        deploymentLifecycle: true,
        gitOperations: true,
        unnamedOperations: true,
        timeoutMs: HANG_GUARD.requestMs,
        checkTimeoutMs: HANG_GUARD.checkMs,
        runs: 5,
        seed: 42,
        strict: false,
        concurrency: 4,
      };
      const before = await apiSnapshot(t.url, t.token, { records: true });
      // The records are there to compare: a deployment's settings per deployment, and the tenant's where served.
      expect(recordCount(before)).toBeGreaterThan(0);
      const outcome = await runChecks(catalogue, settings, await Schemas.load());
      const after = await apiSnapshot(t.url, t.token, { records: true });
      const differences = snapshotDifferences(before, after);
      // What each opt-in let through (judged, not skipped): a clean comparison after a run that changed nothing would prove nothing.
      const ran = new Set(outcome.results.filter((r) => r.status !== "skipped").map((r) => r.id));
      const byOptIn = Object.fromEntries(Object.keys(OPT_INS).map((n) => [n, catalogue.filter((c) => c.needs.includes(n as never) && ran.has(c.id)).length]));
      console.log(
        `${t.url}: ${entryCount(before)} entries and ${recordCount(before)} settings records compared; ${differences.length} differences, ${outcome.leftovers.length} leftovers; checks judged per opt-in ${JSON.stringify(byOptIn)}`,
      );
      // Each difference beside the leftover that names it: what the closing note reports.
      for (const d of differences)
        console.log(`  difference: ${d.slice(0, 300)}\n    named by: ${(outcome.leftovers.find((l) => named(d, [l])) ?? "nothing").slice(0, 300)}`);
      expect(byOptIn["deployment-changes"]).toBeGreaterThan(0);
      expect({ unnamed: differences.filter((d) => !named(d, outcome.leftovers)), leftovers: outcome.leftovers }).toEqual({
        unnamed: [],
        leftovers: outcome.leftovers,
      });
    } finally {
      await t.close();
    }
  });
});

describe("the comparison itself", () => {
  it("sees a setting left changed and a template variable outside the pool, and passes over the pool's names", async () => {
    const t = await reference(["settings-nested"])();
    try {
      const dep = await firstDeployment(t.url, t.token);
      const put = (body: unknown) =>
        fetch(t.url + pathTo("updateDeployment", { deploymentId: dep }), {
          method: "PUT",
          headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      const before = await apiSnapshot(t.url, t.token, { records: true });
      expect((await put({ templateVariables: { [TEMPLATE_VARIABLE_POOL[0]!]: "x" } })).status).toBe(200);
      expect(snapshotDifferences(before, await apiSnapshot(t.url, t.token, { records: true }))).toEqual([]);
      expect((await put({ templateVariables: { LEFT_BEHIND: "x" }, releaseChannelVersionHold: true })).status).toBe(200);
      const differences = snapshotDifferences(before, await apiSnapshot(t.url, t.token, { records: true }));
      expect(differences.join("\n")).toContain(`deployment ${dep} getDeploymentSettings: changed`);
      expect(differences.join("\n")).toContain("LEFT_BEHIND");
      expect(named(differences[0]!, [])).toBe(false);
      expect(named(differences[0]!, [`could not restore the settings of deployment ${dep}: ...`])).toBe(true);
    } finally {
      await t.close();
    }
  });
});

describe("a field a server takes only beside another", () => {
  it("goes back beside the fields it was written with: an image refused alone and stored beside a version is put back", async () => {
    const check = catalogue.filter((c) => c.id === "deployment-update.image.not-settable");
    // The fault refuses an image sent alone and stores one sent beside releaseChannelVersion; put back alone, it would be refused.
    const outcome = await runAgainstReference(check, { faults: ["image-settable-beside-version"], settings: { runs: 1 } });
    expect(outcome.results.map((r) => r.status)).toEqual(["failed"]);
    expect(outcome.leftovers).toEqual([]);
    const image = (outcome.ref.app.store.deployments.find((d) => String(d.id) === String((outcome.ref.config() as any).fixtures.mutableDeploymentId)) as any)
      ?.settings.image;
    expect(String(image)).not.toMatch(/attacker/);
  });
});
