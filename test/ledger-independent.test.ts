import { describe, expect, it } from "vitest";
import { runChecks } from "../core/runner.js";
import { Schemas } from "../core/schemas.js";
import type { RunSettings } from "../core/settings.js";
import { catalogue } from "../suites/index.js";
import { apiSnapshot, entryCount, envVarNames, snapshotDifferences } from "./api-snapshot.js";
import { startIndependentServer as startFirst } from "./independent-server/server.js";
import { startIndependentServer as startSecond } from "./independent-server-2/server.js";
import { startIndependentServer as startThird } from "./independent-server-3/server.js";
import { countingProxy } from "./ledger-harness.js";

/**
 * Rule 8 of the house on servers nobody on the team wrote (issue 19), measured at the server: a
 * read-only run sends GET only (counted by a proxy in front of it); after a full run with writes,
 * every collection the suite knows, read through the server's own API, holds what it held before
 * (the tool's fixed variables aside), and `leftovers` lists exactly what differs: nothing; a second
 * run leaves exactly the same variables as the first.
 */

const RUN_MS = 300_000;
const servers = [
  { name: "independent-server", start: startFirst },
  { name: "independent-server-2", start: startSecond },
  { name: "independent-server-3", start: startThird },
];

describe.each(servers)("runs against $name", ({ start }) => {
  it("read-only sends GET only; with writes, every collection is left as found and no leftover reported, run after run", async () => {
    const server = await start();
    const proxy = await countingProxy(server.url);
    try {
      const schemas = await Schemas.load();
      const settings: RunSettings = { baseUrl: proxy.url, token: server.token, tokens: {}, fixtures: {}, writes: false, unremovableWrites: false, deploymentChanges: false, timeoutMs: 5_000, runs: 5, seed: 1019, strict: false, concurrency: 4 };
      const initial = await apiSnapshot(server.url, server.token);
      expect(entryCount(initial)).toBeGreaterThan(0);

      const readOnly = await runChecks(catalogue, settings, schemas);
      expect(Object.keys(proxy.methods).filter((m) => !["GET", "HEAD", "OPTIONS"].includes(m))).toEqual([]);
      expect({ differences: snapshotDifferences(initial, await apiSnapshot(server.url, server.token)), leftovers: readOnly.leftovers }).toEqual({ differences: [], leftovers: [] });

      const variables: string[][] = [];
      for (const seed of [1020, 1021]) {
        const outcome = await runChecks(catalogue, { ...settings, writes: true, unremovableWrites: true, seed }, schemas);
        const after = await apiSnapshot(server.url, server.token);
        expect({ differences: snapshotDifferences(initial, after), leftovers: outcome.leftovers }).toEqual({ differences: [], leftovers: [] });
        variables.push(envVarNames(after));
      }
      expect(variables[1]).toEqual(variables[0]);
    } finally {
      await proxy.close();
      await server.close();
    }
  }, RUN_MS);
});
