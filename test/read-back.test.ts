import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judge } from "../core/run/verdict.js";
import { Api } from "../core/transport/api.js";
import { HttpClient, TransientWrite } from "../core/transport/http.js";
import { Redactor } from "../core/transport/redact.js";
import { runChecks } from "../core/run/runner.js";
import { selectChecks } from "../core/run/select.js";
import { Schemas } from "../core/api/schemas.js";
import { catalogue } from "../suites/index.js";
import { refusingProxy } from "./refusing-proxy.js";

/**
 * Issue 28 §6: a POST answered 503 may have been applied (a gateway that answers after the server
 * did the work). The run reads it back before any retry, and never sends it again blind.
 */
let server: Server;
let base: string;
let policies: { id: number; name: string }[] = [];
let posts = 0;
/** How the next POST is answered 503: after applying it, before, or not at all. */
let unavailable: "after" | "before" | "no" = "no";

beforeAll(async () => {
  server = createServer((req, res) => {
    const json = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.url === "/api/v1/policies" && req.method === "GET") return json(200, { items: policies, pageInfo: { hasNextPage: false, endCursor: null } });
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      posts++;
      const once = unavailable;
      unavailable = "no";
      if (once === "before") return json(503, { error: "try again" });
      if (req.url === "/api/v1/policies") policies.push({ id: policies.length + 1, name: JSON.parse(text).name });
      if (once === "after") return json(503, { error: "try again" });
      json(201, policies.at(-1) ?? {});
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);

function api(): { api: Api; client: HttpClient } {
  const client = new HttpClient({ baseUrl: base, timeoutMs: 1_000, redactor: new Redactor([]) });
  return { api: new Api(client, null, []), client };
}

describe("a POST answered 503", () => {
  it("applied before the 503: read back, found, not sent again (no duplicate), no verdict", async () => {
    policies = [];
    posts = 0;
    unavailable = "after";
    const { api: a, client } = api();
    await expect(a.call("createPolicy", {}, { body: { name: "cf-run1-policy-1" } })).rejects.toBeInstanceOf(TransientWrite);
    expect(policies.map((p) => p.name)).toEqual(["cf-run1-policy-1"]);
    expect(posts).toBe(1);
    expect(client.transients).toMatchObject({ readBack: 1, notSentAgain: 1, retried: {} });
  });

  it("refused before applying: read back, absent, sent again once", async () => {
    policies = [];
    posts = 0;
    unavailable = "before";
    const { api: a, client } = api();
    const res = await a.call("createPolicy", {}, { body: { name: "cf-run1-policy-2" } });
    expect(res.status).toBe(201);
    expect(policies.map((p) => p.name)).toEqual(["cf-run1-policy-2"]);
    expect(client.transients).toMatchObject({ readBack: 1, retried: { "503": 1 } });
  });

  it("where no read-back can tell (no scratch name): not sent again, no verdict", async () => {
    policies = [];
    posts = 0;
    unavailable = "after";
    const { api: a } = api();
    await expect(a.call("createPolicy", {}, { body: { name: "someone else's" } })).rejects.toBeInstanceOf(TransientWrite);
    expect(posts).toBe(1);
    expect(policies).toHaveLength(1);
  });

  it("a write not sent again is judged not verifiable, never failed or errored", async () => {
    unavailable = "after";
    const { api: a } = api();
    const err = await a.call("createPolicy", {}, { body: { name: "no scratch name" } }).catch((e) => e);
    expect(judge("policies.create.x", err, [])).toMatchObject({ status: "skipped", skipKind: "not-verifiable" });
  });
});

describe("a stranger's write answered 503 before it was handled (sent without the run's key, issue 30)", () => {
  const keyed = () => {
    const key = { role: "admin", value: "run-key-0123456789", envVar: "API_KEY" };
    const client = new HttpClient({ baseUrl: base, timeoutMs: 1_000, redactor: new Redactor([key.value]), credential: key });
    return { keyless: new Api(client, null, []), client, key };
  };

  it("is sent again without a read-back: no server may apply it, so a second sending changes nothing it keeps", async () => {
    posts = 0;
    unavailable = "before";
    const { keyless, client } = keyed();
    const res = await keyless.send({
      method: "POST",
      path: "/api/v1/policies",
      headers: { authorization: "Bearer conformance-unknown-1" },
      body: { name: "x" },
    });
    expect([res.status, posts]).toEqual([201, 2]);
    expect(client.transients).toMatchObject({ readBack: 0, retried: { "503": 1 } });
  });

  it("is not, where a header carries one of the run's keys (an Api-Key scheme a server may accept)", async () => {
    posts = 0;
    unavailable = "after";
    const { keyless, key } = keyed();
    const sent = keyless.send({ method: "POST", path: "/api/v1/policies", headers: { authorization: `Api-Key ${key.value}` }, body: { name: "y" } });
    await expect(sent).rejects.toBeInstanceOf(TransientWrite);
    expect(posts).toBe(1);
  });
});

describe("a POST whose second sending changes nothing (bulk move, bulk delete)", () => {
  it("is sent again after a 429 or 503 without a read-back, as a PUT would be", async () => {
    const { readBackFor } = await import("../core/transport/read-back.js");
    const api = {} as Api;
    const again = readBackFor(api, { method: "POST", path: "/api/v1/deployments/1/workspace/bulk-delete", body: { items: [{ type: "WORKBOOK", id: 3 }] } });
    expect(again).toBeDefined();
    expect(await again!()).toBe(false);
    expect(readBackFor(api, { method: "POST", path: "/api/v1/deployments/1/workbooks/3/duplicate", body: {} })).toBeUndefined();
  });

  it("each operation whose row says its second sending leaves the same state is sent again; the rest are not", async () => {
    const { readBackFor } = await import("../core/transport/read-back.js");
    const { OPERATIONS } = await import("../core/api/operations.js");
    const api = {} as Api;
    // Rows of the table, not a list of the test's own: starting dev mode, setting signed embedding, resetting the setup wizard among them.
    const resendable = OPERATIONS.filter((o) => o.resendable).map((o) => o.name);
    expect(resendable).toEqual(expect.arrayContaining(["startDevMode", "setDashboardEmbedding", "resetCreationStep", "bulkUserAction", "createMetadataToken"]));
    for (const o of OPERATIONS.filter((x) => x.method === "POST" || x.method === "PATCH")) {
      const path = o.path.replace(/\{[^}]+\}/g, "7");
      const again = readBackFor(api, { method: o.method, path, body: { enabled: true } });
      expect([o.name, again ? await again() : "not sent again"]).toEqual([o.name, o.resendable ? false : "not sent again"]);
    }
  });
});

describe("a chunked upload's finish answered 429 (a rate-limited server, issue 30)", () => {
  it("is sent again, since finishing an upload again leaves the same file: the check is judged and nothing is left", async () => {
    let refused = 0;
    const proxy = await refusingProxy((req, url) =>
      req.method === "POST" && url.pathname.endsWith("/data-model/upload/finish") && refused++ === 0
        ? { status: 429, body: { error: "too many requests" } }
        : undefined,
    );
    try {
      const outcome = await runChecks(selectChecks(catalogue, undefined, ["data-model.upload.chunks-joined"]), proxy.settings, await Schemas.load());
      expect(refused).toBeGreaterThan(1);
      expect(outcome.results.map((r) => `${r.id}: ${r.status} ${r.message}`)).toEqual(["data-model.upload.chunks-joined: passed "]);
      expect(outcome.leftovers).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});
