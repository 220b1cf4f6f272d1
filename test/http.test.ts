import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Expect } from "../core/api/expect.js";
import { HttpClient, NetworkError, RateLimited, retryAfterMs, TransientWrite } from "../core/transport/http.js";
import { CheckFailure } from "../core/model/outcome.js";
import { CUT_OFF } from "../core/model/exchange.js";
import { Redactor } from "../core/transport/redact.js";
import { Schemas } from "../core/api/schemas.js";

const TOKEN = "tok_super_secret_value_123";
const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";
let server: Server;
let base: string;
let hits429 = 0;
let hitsExport = 0;
const unavailableOnce = new Set<string>();
const cutOffOnce = new Set<string>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url!, "http://x");
    if (url.pathname === "/limited-forever") {
      res.writeHead(429, { "retry-after": "3600" }).end();
    } else if (url.pathname === "/limited") {
      if (hits429++ < 2) {
        res.writeHead(429, { "retry-after": "0" }).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    } else if (url.pathname === "/unavailable-once") {
      // 503 to the first request of each method, with or without Retry-After as the query says.
      if (!unavailableOnce.has(req.method!)) {
        unavailableOnce.add(req.method!);
        res.writeHead(503, url.searchParams.has("retry-after") ? { "retry-after": "0" } : {}).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    } else if (url.pathname === "/cut-off-once") {
      // The first request of each method: its connection ends with no answer (as a server closes a
      // kept-alive connection the client reuses at that moment), reset or closed as the query says.
      if (!cutOffOnce.has(req.method!)) {
        cutOffOnce.add(req.method!);
        if (url.searchParams.has("reset")) req.socket.resetAndDestroy();
        else req.socket.destroy();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    } else if (url.pathname === "/html") {
      res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><html>app</html>");
    } else if (url.pathname === "/echo") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ auth: req.headers.authorization, jwt: JWT }));
    } else if (url.pathname === "/big") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ pad: "x".repeat(64 * 1024) }));
    } else if (url.pathname === "/export-limited") {
      if (hitsExport++ < 1) {
        res.writeHead(429, { "retry-after": "1" }).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/csv" }).end("a,b\n1,2\n");
    } else if (url.pathname === "/export-cut") {
      res.writeHead(200, { "content-type": "text/csv", "content-length": "1000" });
      res.write("a,b\n1,2\n");
      setTimeout(() => res.destroy(), 20);
    } else if (url.pathname === "/moved") {
      res.writeHead(302, { location: "/moved" }).end();
    } else if (url.pathname === "/slow" || url.pathname === "/api/v1/deployments") {
      setTimeout(() => res.end("late"), 2_000);
    } else res.writeHead(404, { "content-type": "application/json" }).end('{"error":"nope"}');
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

const client = (timeoutMs = 1_000) =>
  new HttpClient({ baseUrl: base, timeoutMs, redactor: new Redactor([TOKEN]), credential: { role: "primary", value: TOKEN, envVar: "CONFORMANCE_TOKEN" } });

describe("HTTP client", () => {
  it("--rate-limit: requests of every client to the server leave at most that many a second, a 429's retry counted and still waited out", async () => {
    const paced = () => new HttpClient({ baseUrl: base, timeoutMs: 5_000, redactor: new Redactor([]), rateLimit: 20 });
    const [a, b] = [paced(), paced()];
    const started = performance.now();
    // 20 sends from two clients at once (as discovery and a check would), then one that meets 429s (Retry-After 0) twice.
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).send({ method: "GET", path: "/html" })));
    hits429 = 0;
    expect((await a.send({ method: "GET", path: "/limited" })).status).toBe(200);
    // 23 requests at 20 a second: the last leaves 22 intervals of 50 ms after the first, by the clock
    // the bound is read with (a timer that fires early is waited out again). A lower bound: a busy machine is only slower.
    expect(performance.now() - started).toBeGreaterThanOrEqual(22 * 50);
    await Promise.all([a.close(), b.close()]);
  });

  it("waits out a 429 (Retry-After) and retries: a 429 is never the verdict", async () => {
    const res = await client().send({ method: "GET", path: "/limited" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });

  it("waits out a 503, with or without Retry-After, for a request safe to repeat, and counts it", async () => {
    for (const query of [{ "retry-after": "1" }, {}]) {
      unavailableOnce.clear();
      const c = client();
      const res = await c.send({ method: "GET", path: "/unavailable-once", query });
      expect(res.status).toBe(200);
      expect(c.transients.retried).toEqual({ "503": 1 });
    }
  });

  it("sends a read once more when its connection ends before any answer (reset or closed), and counts it; a write is not sent again", async () => {
    for (const query of [{ reset: "1" }, {}]) {
      cutOffOnce.clear();
      const c = client();
      const res = await c.send({ method: "GET", path: "/cut-off-once", query });
      expect(res.status).toBe(200);
      expect(c.transients.retried).toEqual({ [CUT_OFF]: 1 });
      await expect(c.send({ method: "POST", path: "/cut-off-once", query, body: {} })).rejects.toBeInstanceOf(NetworkError);
      expect(c.transients.retried).toEqual({ [CUT_OFF]: 1 });
      await c.close();
    }
  });

  it("reads a POST answered 503 back before any retry: sent again only when it was not applied", async () => {
    unavailableOnce.clear();
    const c = client();
    // Applied (or it cannot tell): not sent again, and no answer to judge.
    await expect(c.send({ method: "POST", path: "/unavailable-once", body: {}, readBack: async () => true })).rejects.toBeInstanceOf(TransientWrite);
    unavailableOnce.clear();
    const notApplied = await c.send({ method: "POST", path: "/unavailable-once", body: {}, readBack: async () => false });
    expect(notApplied.status).toBe(200);
    expect(c.transients).toEqual({ retried: { "503": 1 }, gaveUp: 0, readBack: 2, notSentAgain: 1 });
    // No read-back at all: never retried blind.
    unavailableOnce.clear();
    await expect(c.send({ method: "POST", path: "/unavailable-once", body: {} })).rejects.toBeInstanceOf(TransientWrite);
    expect(c.transients.notSentAgain).toBe(2);
  });

  it("says clearly when a body is not JSON", async () => {
    const res = await client().send({ method: "GET", path: "/html" });
    expect(res.isJson).toBe(false);
    const expectations = new Expect(await Schemas.load());
    expect(() => expectations.json(res)).toThrow(CheckFailure);
    expect(() => expectations.json(res)).toThrow("the response is not JSON");
  });

  it("never shows a token in what it records: headers, URLs, bodies, curl", async () => {
    const log: any[] = [];
    await client().send({ method: "POST", path: "/echo", query: { key: TOKEN }, body: { token: TOKEN } }, log);
    const shown = JSON.stringify(log);
    expect(shown).not.toContain(TOKEN);
    expect(shown).not.toContain(JWT);
    expect(log[0].requestHeaders.authorization).toBe("Bearer [REDACTED]");
    expect(log[0].curl).toContain('"authorization: Bearer $CONFORMANCE_TOKEN"');
    expect(log[0].curl).toContain("--data-raw");
  });

  it("shows a credential the suite made up to be refused (empty, Basic, unknown key) in the exchange and the curl line; redacts a real one and a JWT", async () => {
    const made = ["Bearer", "", `Basic ${Buffer.from("conformance:conformance-unknown-abc").toString("base64")}`, "Bearer conformance-unknown-xyz"];
    for (const header of made) {
      const log: any[] = [];
      await client().send({ method: "GET", path: "/echo", credential: null, headers: { authorization: header } }, log);
      expect(log[0].requestHeaders.authorization).toBe(header);
      expect(log[0].curl).toContain(`'authorization: ${header}'`);
    }
    const log: any[] = [];
    await client().send({ method: "GET", path: "/echo", credential: null, headers: { authorization: `Bearer ${JWT}`, "x-other": TOKEN } }, log);
    expect(JSON.stringify(log)).not.toContain(JWT);
    expect(JSON.stringify(log)).not.toContain(TOKEN);
  });

  it("reports a silent server as a network error naming the timeout", async () => {
    await expect(client(200).send({ method: "GET", path: "/slow" })).rejects.toThrow(/no answer within 200 ms/);
  });

  it("gives up on a 429 storm with RateLimited (no verdict), each wait bounded by the request timeout", async () => {
    const started = performance.now();
    // 2 s: each answer must arrive within the request timeout on a loaded machine (100 ms timed out
    // at load 20), and the four waits it bounds stay far below one Retry-After.
    const err = await client(2_000)
      .send({ method: "GET", path: "/limited-forever" })
      .catch((e) => e);
    expect(err).toBeInstanceOf(RateLimited);
    expect(err.message).toMatch(/^rate limited: GET .* still answered 429 after 5 attempts/);
    // Not one Retry-After (3600 s) waited: each wait was bounded by the request timeout, whatever the machine's load.
    expect(performance.now() - started).toBeLessThan(3_600_000);
  });

  it("retries a streamed answer's 429 like any other, waiting as Retry-After asks (here bounded by the 500 ms timeout)", async () => {
    const started = performance.now();
    const answer = await client(500).stream({ method: "GET", path: "/export-limited" });
    expect(answer.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(450);
    let text = "";
    for await (const chunk of answer.body) text += chunk.toString();
    expect(text).toBe("a,b\n1,2\n");
  });

  it("a streamed body that breaks off fails its reader with a NetworkError, not a crash", async () => {
    const answer = await client().stream({ method: "GET", path: "/export-cut" });
    const err = await (async () => {
      for await (const _ of answer.body) void _;
    })().catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/the connection closed before the body was complete/);
  });

  it("does not read a body past its size limit", async () => {
    const small = new HttpClient({ baseUrl: base, timeoutMs: 1_000, redactor: new Redactor([]), maxBodyBytes: 16 * 1024 });
    const err = await small.send({ method: "GET", path: "/big" }).catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/the body is larger than 16 KiB, the most the tester reads/);
  });

  it("does not follow a redirect: the 3xx is the answer, so a loop costs one request", async () => {
    const log: any[] = [];
    const res = await client().send({ method: "GET", path: "/moved" }, log);
    expect(res.status).toBe(302);
    expect(log).toHaveLength(1);
  });

  it("reports a closed port as connection refused", async () => {
    const c = new HttpClient({ baseUrl: "http://127.0.0.1:9", timeoutMs: 1_000, redactor: new Redactor([]) });
    const err = await c.send({ method: "GET", path: "/" }).catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/connection refused/);
  });

  it("reads Retry-After as seconds or a date, bounded", () => {
    expect(retryAfterMs("2", 0)).toBe(2_000);
    expect(retryAfterMs("3600", 0)).toBe(10_000);
    expect(retryAfterMs(new Date(Date.now() + 1_000).toUTCString(), 0)).toBeLessThanOrEqual(1_000);
    expect(retryAfterMs(undefined, 1)).toBe(500);
  });
});

describe("Redactor", () => {
  it("hides a secret-named variable's value a server leaked, keeps the mask and plain values", () => {
    const r = new Redactor([]);
    const leaked = JSON.stringify({
      items: [
        { name: "DB_PASSWORD", value: "hunter2" },
        { name: "api_key", value: 'a"b' },
        { name: "GITHUB_TOKEN", value: "[ENCRYPTED]" },
        { name: "TZ", value: "UTC" },
      ],
    });
    const shown = r.text(leaked);
    expect(shown).not.toContain("hunter2");
    expect(shown).not.toContain('a\\"b');
    expect(JSON.parse(shown).items.map((v: any) => v.value)).toEqual(["[REDACTED]", "[REDACTED]", "[ENCRYPTED]", "UTC"]);
  });
});

describe("runner", () => {
  it("stops attempting checks once the server has stopped answering", async () => {
    const { runChecks } = await import("../core/run/runner.js");
    const { group } = await import("../core/check/check.js");
    const checks = group(
      "probe",
      Array.from({ length: 6 }, (_, i) => ({
        id: `probe.${i}`,
        spec: "E1",
        level: "MUST" as const,
        title: "probe",
        async run({ api }: any) {
          await api.get("/slow");
        },
      })),
    );
    const outcome = await runChecks(
      checks,
      { baseUrl: base, token: TOKEN, tokens: {}, fixtures: {}, writes: false, unremovableWrites: false, timeoutMs: 150, runs: 1, seed: 1, strict: false },
      await Schemas.load(),
    );
    expect(outcome.results.map((r) => r.status)).toEqual(Array(6).fill("errored"));
    expect(outcome.results.slice(3).every((r) => r.message.startsWith("not run: the server stopped answering"))).toBe(true);
  });
});
