import { HANG_GUARD } from "./reference-run.js";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { runChecks } from "../core/run/runner.js";
import { Schemas } from "../core/api/schemas.js";
import type { RunSettings } from "../core/api/settings.js";
import { NOT_CONFIRMED } from "../core/ledger/ownership.js";
import { selectChecks } from "../core/run/select.js";
import { catalogue } from "../suites/index.js";
import { apiSnapshot, entryCount, envVarNames, firstDeployment, recordCount, snapshotDifferences } from "./api-snapshot.js";
import { startIndependentServer as startFirst } from "./independent-server/server.js";
import { startIndependentServer as startSecond } from "./independent-server-2/server.js";
import { startIndependentServer as startThird } from "./independent-server-3/server.js";
import { countingProxy } from "./ledger-harness.js";

/**
 * Rule 8 of the house on servers nobody on the team wrote (issue 19), measured at the server: a
 * read-only run sends GET only (counted by a proxy in front of it); after a full run with writes,
 * and after a second one with every write opt-in (issue 26), every collection the suite knows and
 * every settings-like record, read through the server's own API, holds what it held before (the
 * tool's fixed variables aside), and `leftovers` lists exactly what differs: nothing; the second
 * run leaves exactly the same variables as the first.
 */

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
      const settings: RunSettings = {
        baseUrl: proxy.url,
        token: server.token,
        tokens: {},
        fixtures: {},
        writes: false,
        unremovableWrites: false,
        deploymentChanges: false,
        timeoutMs: HANG_GUARD.requestMs,
        checkTimeoutMs: HANG_GUARD.checkMs,
        runs: 5,
        seed: 1019,
        strict: false,
        concurrency: 4,
      };
      // The settings-like records too (a deployment's settings, the tenant's): the second write run has every opt-in.
      const initial = await apiSnapshot(server.url, server.token, { records: true });
      expect(entryCount(initial)).toBeGreaterThan(0);
      expect(recordCount(initial)).toBeGreaterThan(0);

      const readOnly = await runChecks(catalogue, settings, schemas);
      expect(Object.keys(proxy.methods).filter((m) => !["GET", "HEAD", "OPTIONS"].includes(m))).toEqual([]);
      expect({
        differences: snapshotDifferences(initial, await apiSnapshot(server.url, server.token, { records: true })),
        leftovers: readOnly.leftovers,
      }).toEqual({
        differences: [],
        leftovers: [],
      });

      // Writes, then every write opt-in on the first deployment listed (the test's choice, as a user names one):
      // what test/ledger-settings.test.ts asks of the other servers, asked here of these.
      const everyOptIn: Partial<RunSettings> = {
        deploymentChanges: true,
        adminWrites: true,
        deploymentLifecycle: true,
        gitOperations: true,
        unnamedOperations: true,
        fixtures: { mutableDeploymentId: await firstDeployment(server.url, server.token) },
      };
      const variables: string[][] = [];
      for (const [seed, more] of [
        [1020, {}],
        [1021, everyOptIn],
      ] as const) {
        const outcome = await runChecks(catalogue, { ...settings, writes: true, unremovableWrites: true, seed, ...more }, schemas);
        const after = await apiSnapshot(server.url, server.token, { records: true });
        expect({ differences: snapshotDifferences(initial, after), leftovers: outcome.leftovers }).toEqual({ differences: [], leftovers: [] });
        variables.push(envVarNames(after));
        if (more === everyOptIn)
          expect(outcome.results.filter((r) => r.status !== "skipped" && r.id.startsWith("deployment-update.")).length).toBeGreaterThan(0);
      }
      expect(variables[1]).toEqual(variables[0]);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});

/**
 * independent-server-2 behind a proxy with a bug of the kind: a clone is made (with copies
 * of its source's reports, which that server keeps when the clone goes) but answered with the
 * source's record, so the ledger never holds the clone.
 */
async function cloneAnsweredWithSource(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const body = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve) => {
      const parts: Buffer[] = [];
      req.on("data", (c) => parts.push(c)).on("end", () => resolve(Buffer.concat(parts)));
    });
  const server = createServer(async (req, res) => {
    const headers: Record<string, string> = {};
    for (const k of ["authorization", "content-type", "accept"]) if (typeof req.headers[k] === "string") headers[k] = req.headers[k] as string;
    const sent = await body(req);
    try {
      let answer = await fetch(target + req.url, { method: req.method, headers, body: sent.length ? new Uint8Array(sent) : undefined });
      const source = /^(.*\/workbooks\/\d+)\/duplicate$/.exec(req.url ?? "");
      if (req.method === "POST" && source && answer.status === 200) answer = await fetch(target + source[1], { headers });
      res.writeHead(answer.status, {
        "content-type": answer.headers.get("content-type") ?? "application/json",
        date: answer.headers.get("date") ?? new Date().toUTCString(),
      });
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("clones the ledger never held (their answers named the source)", () => {
  it("the sweep finds them by name and removes the report copies they brought with them; the source is never touched", async () => {
    const server = await startSecond();
    const proxy = await cloneAnsweredWithSource(server.url);
    try {
      const before = await apiSnapshot(server.url, server.token);
      const settings: RunSettings = {
        baseUrl: proxy.url,
        token: server.token,
        tokens: {},
        fixtures: {},
        writes: true,
        unremovableWrites: false,
        deploymentChanges: false,
        timeoutMs: HANG_GUARD.requestMs,
        checkTimeoutMs: HANG_GUARD.checkMs,
        runs: 5,
        seed: 1022,
        strict: false,
        concurrency: 4,
      };
      const outcome = await runChecks(selectChecks(catalogue, ["clone"]), settings, await Schemas.load());
      expect(snapshotDifferences(before, await apiSnapshot(server.url, server.token))).toEqual([]);
      // What the answers named instead (the sources) is reported as not confirmed, never removed.
      expect(outcome.leftovers.length).toBeGreaterThan(0);
      expect(outcome.leftovers.filter((l) => !l.startsWith(NOT_CONFIRMED))).toEqual([]);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});
