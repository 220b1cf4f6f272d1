import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Expect } from "../core/expect.js";
import { HttpClient, NetworkError, retryAfterMs } from "../core/http.js";
import { CheckFailure } from "../core/outcome.js";
import { Redactor } from "../core/redact.js";
import { Schemas } from "../core/schemas.js";

const TOKEN = "tok_super_secret_value_123";
const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";
let server: Server;
let base: string;
let hits429 = 0;
let streamHits429 = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url!, "http://x");
    if (url.pathname === "/limited") {
      if (hits429++ < 2) {
        res.writeHead(429, { "retry-after": "0" }).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    } else if (url.pathname === "/limited-export") {
      if (streamHits429++ < 2) {
        res.writeHead(429, { "retry-after": "0", "content-type": "application/json" }).end('{"error":"slow down"}');
        return;
      }
      res.writeHead(200, { "content-type": "text/csv" }).end("a,b\n1,2\n");
    } else if (url.pathname === "/html") {
      res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><html>app</html>");
    } else if (url.pathname === "/echo") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ auth: req.headers.authorization, jwt: JWT }));
    } else if (url.pathname === "/slow") {
      setTimeout(() => res.end("late"), 2_000);
    } else res.writeHead(404, { "content-type": "application/json" }).end('{"error":"nope"}');
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));

const client = (timeoutMs = 1_000) => new HttpClient({ baseUrl: base, timeoutMs, redactor: new Redactor([TOKEN]), credential: { role: "primary", value: TOKEN, envVar: "CONFORMANCE_TOKEN" } });

describe("HTTP client", () => {
  it("waits out a 429 (Retry-After) and retries: a 429 is never the verdict", async () => {
    const res = await client().send({ method: "GET", path: "/limited" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });

  it("waits out a 429 on a streamed answer too (the audit export) and retries", async () => {
    const log: any[] = [];
    const answer = await client().stream({ method: "GET", path: "/limited-export" }, log);
    expect(answer.status).toBe(200);
    let text = "";
    for await (const chunk of answer.body) text += chunk.toString();
    expect(text).toBe("a,b\n1,2\n");
    expect(streamHits429).toBe(3);
    expect(log.map((e) => e.status)).toEqual([200]);
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

  it("reports a silent server as a network error naming the timeout", async () => {
    await expect(client(200).send({ method: "GET", path: "/slow" })).rejects.toThrow(/no answer within 200 ms/);
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
    const leaked = JSON.stringify({ items: [{ name: "DB_PASSWORD", value: "hunter2" }, { name: "api_key", value: "a\"b" }, { name: "GITHUB_TOKEN", value: "[ENCRYPTED]" }, { name: "TZ", value: "UTC" }] });
    const shown = r.text(leaked);
    expect(shown).not.toContain("hunter2");
    expect(shown).not.toContain('a\\"b');
    expect(JSON.parse(shown).items.map((v: any) => v.value)).toEqual(["[REDACTED]", "[REDACTED]", "[ENCRYPTED]", "UTC"]);
  });
});

describe("runner", () => {
  it("stops attempting checks once the server has stopped answering", async () => {
    const { runChecks } = await import("../core/runner.js");
    const { group } = await import("../core/check.js");
    const checks = group("probe", Array.from({ length: 6 }, (_, i) => ({ id: `probe.${i}`, spec: "E1", level: "MUST" as const, title: "probe", async run({ api }: any) { await api.get("/slow"); } })));
    const outcome = await runChecks(checks, { baseUrl: base, token: TOKEN, tokens: {}, fixtures: {}, writes: false, unremovableWrites: false, timeoutMs: 150, runs: 1, seed: 1, strict: false }, await Schemas.load());
    expect(outcome.results.map((r) => r.status)).toEqual(Array(6).fill("errored"));
    expect(outcome.results.slice(3).every((r) => r.message.startsWith("not run: the server stopped answering"))).toBe(true);
  });
});
