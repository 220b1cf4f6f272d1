import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { HttpClient } from "../core/transport/http.js";
import { Redactor } from "../core/transport/redact.js";
import { Together } from "../core/transport/together.js";

/**
 * The barrier of the races (core/transport/together.ts): a server sees every request of the group
 * whole in the same turn of its event loop, in the order they were sent, whatever the machine's load
 * (turns are counted, no clock is read).
 */
let server: Server;
let baseUrl: string;
let turn = 0;
let ticking = true;
const whole: { n: number; turn: number }[] = [];

beforeAll(async () => {
  const tick = () => {
    turn++;
    if (ticking) setImmediate(tick);
  };
  tick();
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      whole.push({ n: JSON.parse(body).n, turn });
      res.end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  ticking = false;
  server.close();
});

// Long bodies: the head of each goes out well before its last byte.
const pad = "x".repeat(20_000);

it("delivers a group's requests whole to the server in one turn of its event loop, in the order sent", async () => {
  whole.length = 0;
  const client = new HttpClient({ baseUrl, timeoutMs: 10_000, redactor: new Redactor([]) });
  try {
    // No bound to fall back on within the test: only the barrier's count opens it.
    const together = new Together(12, 3_600_000);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => client.send({ method: "PUT", path: `/race/${n}`, body: { n, pad }, together })));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(whole.map((w) => w.n)).toEqual(Array.from({ length: 12 }, (_, n) => n));
    expect(new Set(whole.map((w) => w.turn)).size).toBe(1);
  } finally {
    await client.close();
  }
});

// A refused party that kept the others waiting would hang this test until the request timeout failed them all.
it("lets the others go when a party is refused before its last byte", async () => {
  whole.length = 0;
  const client = new HttpClient({
    baseUrl,
    timeoutMs: 10_000,
    redactor: new Redactor([]),
    guard: (_m, url) => (url.pathname.endsWith("/1") ? "refused" : undefined),
  });
  try {
    const together = new Together(3, 3_600_000);
    const settled = await Promise.allSettled([0, 1, 2].map((n) => client.send({ method: "PUT", path: `/race/${n}`, body: { n, pad }, together })));
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(whole.map((w) => w.n)).toEqual([0, 2]);
  } finally {
    await client.close();
  }
});
