import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Check } from "../core/check/check.js";
import { runChecks } from "../core/run/runner.js";
import { matchPath } from "../core/api/match.js";
import { pathTo } from "../core/transport/client.js";
import { operation } from "../core/api/operations.js";
import { Schemas } from "../core/api/schemas.js";
import { type RunningReference, startReference } from "../reference/server.js";
import { settingsFor } from "./reference-run.js";

/**
 * Issue 26, section 3: a settings-like record is read before the first write through the answer
 * shapes the run reads it with, the server's own document's wrappers included. In front of the
 * reference, a proxy answers a deployment's settings as `{"result": {"config": {...}}}` (a nesting
 * none of the spec's shapes guesses) and declares that in the document it serves: the door must
 * still put back what a check changed and left.
 */

const WRAPPED = ["result", "config"] as const;

/** The reference behind a proxy that nests the settings answer under WRAPPED, and documents it so. */
async function wrappingProxy(ref: RunningReference): Promise<{ url: string; close(): Promise<void> }> {
  const target = (ref.config() as any).baseUrl as string;
  const settings = operation("getDeploymentSettings").path;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !["host", "content-length"].includes(k))) as Record<string, string>;
      const up = await fetch(target + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      let text = await up.text();
      const path = new URL(req.url ?? "/", target).pathname;
      if (req.method === "GET" && up.status === 200 && matchPath(settings, path)) text = JSON.stringify({ result: { config: JSON.parse(text) } });
      if (req.method === "GET" && up.status === 200 && path === pathTo("getSpec")) {
        const doc = JSON.parse(text);
        const answer = doc.paths[settings].get.responses["200"].content["application/json"];
        answer.schema = wrap(answer.schema);
        text = JSON.stringify(doc);
      }
      res.writeHead(up.status, { "content-type": up.headers.get("content-type") ?? "application/json" });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The schema nested under WRAPPED, each level a single required object property. */
const wrap = (schema: unknown) => WRAPPED.reduceRight<unknown>((inner, name) => ({ type: "object", required: [name], properties: { [name]: inner } }), schema);

/** Holds the deployment at its version, registering nothing. */
const holds: Check = {
  id: "test.door.holds-the-version",
  group: "test",
  kind: "example",
  spec: "E6",
  level: "MUST",
  title: "holds a deployment at its version without registering any cleanup (a test's check)",
  needs: ["writes", "deployment-changes", "fixture:mutableDeployment"],
  async run({ api, fixture }) {
    const body = { releaseChannelVersionHold: true, templateVariables: { CUBEJS_DB_NAME: "changed" } };
    expect((await api.call("updateDeployment", { deploymentId: fixture("mutableDeployment").id }, { body })).status).toBe(200);
  },
};

let ref: RunningReference | undefined;
let proxy: { close(): Promise<void> } | undefined;
afterEach(async () => {
  await proxy?.close();
  await ref?.close();
  ref = proxy = undefined;
});

describe("a record read through the server's own document", () => {
  it("is put back under the wrappers the document declares for its read", async () => {
    ref = await startReference();
    const p = await wrappingProxy(ref);
    proxy = p;
    const dep = String((ref.config() as any).fixtures.mutableDeploymentId);
    const read = async () =>
      (
        await fetch(p.url + pathTo("getDeploymentSettings", { deploymentId: dep }), { headers: { authorization: `Bearer ${(ref!.config() as any).token}` } })
      ).json();
    const before = await read();
    expect(before.result.config.releaseChannelVersionHold).toBe(false);
    const outcome = await runChecks([holds], { ...settingsFor(ref, { seed: 16, concurrency: 1 }), baseUrl: p.url }, await Schemas.load());
    expect(outcome.results.map((r) => [r.id, r.status, r.message])).toEqual([[holds.id, "passed", expect.anything()]]);
    expect(outcome.leftovers).toEqual([]);
    expect(await read()).toEqual(before);
  });
});
