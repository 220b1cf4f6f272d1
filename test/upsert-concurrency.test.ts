import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api } from "../core/transport/api.js";
import { HttpClient, type Credential } from "../core/transport/http.js";
import { requireAnswer } from "../core/api/preconditions.js";
import { Redactor } from "../core/transport/redact.js";
import { Scratch } from "../core/ledger/scratch.js";
import { buildApp, startReference, type RunningReference } from "../reference/server.js";
import { faultNamed } from "../reference/faults.js";
import { HttpError } from "../reference/http.js";
import { newItem } from "../reference/store.js";
import { raceOnSlug } from "../suites/upsert/concurrency.js";

/**
 * The concurrency checks of E11 rule 5 prove something only if their race really reaches the 409
 * path: the reference's decide/apply window (upsertDelayMs) must be wide enough for it.
 */
describe("the E11 race of the concurrency checks", () => {
  let ref: RunningReference;
  let client: HttpClient;
  let api: Api;

  beforeAll(async () => {
    ref = await startReference();
    const token = (ref.config() as { token: string }).token;
    const credential: Credential = { role: "primary", value: token, envVar: "CONFORMANCE_TOKEN" };
    client = new HttpClient({ baseUrl: ref.url, timeoutMs: 5_000, redactor: new Redactor([token]), credential });
    api = new Api(client, credential, []);
  });

  afterAll(async () => {
    await client.close();
    await ref.close();
  });

  async function expectConflicts(api: Api, server = ref): Promise<void> {
    const scratch = new Scratch("race");
    const dep = String(server.seeded.store.deployments[0].id);
    const race = await raceOnSlug({ api, scratch, require: requireAnswer }, dep);
    const statuses = race.writers.map((w) => w.res.status);
    expect(statuses.filter((s) => s !== 200 && s !== 409)).toEqual([]);
    const conflicts = race.writers.filter((w) => w.res.status === 409);
    expect(conflicts.length).toBeGreaterThan(0);
    for (const w of conflicts) expect(w.res.body?.code).toBe("upsert_branch_changed");
    expect(await scratch.cleanup(api)).toEqual([]);
  }

  it("meets at least one 409 upsert_branch_changed on the clean reference, and nothing but 200 or 409", async () => {
    await expectConflicts(api);
  });

  // The race is made by the check's barrier (core/transport/together.ts), not hoped for in the
  // server's window: every request is whole at the server in one turn of its event loop, so every
  // decision is taken before any is applied, however short the window and however loaded the machine.
  it("meets a 409 when the reference applies each decision at its next timer (no window to hope in)", async () => {
    const narrow = await startReference({ upsertDelayMs: 0 });
    const token = (narrow.config() as { token: string }).token;
    const credential: Credential = { role: "primary", value: token, envVar: "CONFORMANCE_TOKEN" };
    const near = new HttpClient({ baseUrl: narrow.url, timeoutMs: 5_000, redactor: new Redactor([token]), credential });
    try {
      await expectConflicts(new Api(near, credential, []), narrow);
    } finally {
      await near.close();
      await narrow.close();
    }
  });

  // The race is the server's decide/apply window, not the client's timing: every request sent at
  // once, a latency that delays each alike leaves them as close together at the server.
  it("still meets a 409 when every request takes 40 ms longer (a delaying proxy in front of the reference)", async () => {
    const proxy = await delayingProxy(ref.url, 40);
    const token = (ref.config() as { token: string }).token;
    const credential: Credential = { role: "primary", value: token, envVar: "CONFORMANCE_TOKEN" };
    const slow = new HttpClient({ baseUrl: proxy.url, timeoutMs: 5_000, redactor: new Redactor([token]), credential });
    try {
      await expectConflicts(new Api(slow, credential, []));
    } finally {
      await slow.close();
      await proxy.close();
    }
  });
});

/** Forwards each request to `target` after `ms` milliseconds. */
async function delayingProxy(target: string, ms: number): Promise<{ url: string; close: () => Promise<void> }> {
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on("data", (c: Buffer) => body.push(c));
    req.on("end", () =>
      setTimeout(() => {
        const out = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        out.on("error", () => res.writeHead(502).end());
        out.end(Buffer.concat(body));
      }, ms),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * The proof of upsert.concurrency.conflict-not-applied must not hope for an interleaving: under load
 * every writer may decide before the delete, so that each 409 meets no holder. The fault is driven
 * here through that worst order by hand: a refused request still reaches the slug's next holder.
 */
describe("the upsert-409-applies fault, in the interleaving a loaded machine gives", () => {
  it("applies a refused request's meta to the slug's next holder when its 409 met none", async () => {
    const { app } = buildApp({ faults: ["upsert-409-applies"] });
    const fault = faultNamed("upsert-409-applies");
    const dep = app.store.deployments[0];
    const req = (meta: Record<string, number>) => ({ params: { deploymentId: String(dep.id), slug: "forced-race" }, body: { meta } }) as never;
    const conflict = () => Promise.reject(new HttpError(409, "changed", { code: "upsert_branch_changed" }));
    // Refused while the slug has no holder (its workbook was deleted in the window).
    await expect(Promise.resolve(fault.handle!({ req: req({ writer0: 0 }), app, next: conflict }))).rejects.toThrow("changed");
    // Then a writer creates the slug's next holder.
    const created = newItem(app.store, { deploymentId: dep.id, type: "WORKBOOK", name: "n", slug: "forced-race", createdBy: 1 });
    await fault.handle!({ req: req({ settled: 1 }), app, next: async () => ({ status: 200, body: {} }) });
    expect(created.meta).toMatchObject({ writer0: 0 });
  });
});
