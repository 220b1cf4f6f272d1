import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { group } from "../core/check/check.js";
import type { CheckContext } from "../core/check/context.js";
import { type Exchange, NetworkError } from "../core/transport/http.js";
import { CheckFailure, Skip } from "../core/model/outcome.js";
import { DEFAULT_REQUEST_BUDGET, forAll, OUTLAY_FOR_A_VERDICT, type PropertyOptions } from "../core/run/property.js";
import { runChecks } from "../core/run/runner.js";
import { Schemas } from "../core/api/schemas.js";
import { selectChecks } from "../core/run/select.js";
import { catalogue } from "../suites/index.js";
import { startChaos, type ChaosServer } from "./chaos-server.js";
import { runAgainstReference, settingsFor } from "./reference-run.js";
import { tokenPath } from "../suites/lib/metadata-token.js";

/**
 * The property engine is bounded (core/run/property.ts): its request budget covers the search, the
 * shrinking and the confirming replay; a network error ends it unshrunk; a replay that does not
 * fail again leaves the original failure, labelled intermittent; fewer than 10 completed runs is
 * not a pass; the curl lines of a failure replay its setup too.
 */

/** A property check whose trials are counted per run of the check (the runner runs a failure twice more). */
function counted<T>(
  name: string,
  arb: fc.Arbitrary<T>,
  trial: (v: T, call: number, ctx: CheckContext, api: Parameters<Parameters<typeof forAll<T>>[2]>[1]) => Promise<void>,
  opts: PropertyOptions<T> = {},
  setup?: (ctx: CheckContext) => Promise<void>,
) {
  const calls: number[] = [];
  const check = group("bounds", [
    {
      id: `bounds.${name}`,
      spec: "test",
      level: "MUST",
      title: name,
      kind: "property",
      async run(ctx) {
        await setup?.(ctx);
        calls.push(0);
        await forAll(ctx, arb, (v, api) => trial(v, calls[calls.length - 1]++, ctx, api), opts);
      },
    },
  ])[0];
  return { check, calls };
}

const E1 = "/api/v1/deployments";

/** The most of a property's cases in flight at one time: each case's requests go through `during`. */
function inFlight() {
  let now = 0;
  let most = 0;
  return {
    async during<T>(send: () => Promise<T>): Promise<T> {
      most = Math.max(most, ++now);
      try {
        return await send();
      } finally {
        now--;
      }
    },
    most: () => most,
  };
}
/** What the cases a verdict needs may spend of a property that names no budget. */
const OUTLAY = OUTLAY_FOR_A_VERDICT * DEFAULT_REQUEST_BUDGET;
const SETTINGS = { settings: { runs: 100 } };

describe("the request budget covers the search and the shrinking", () => {
  it("a failure with a long shrink stops shrinking at the budget, and is still reported with its smallest case so far", async () => {
    // Three large numbers among many: fast-check tries hundreds of smaller arrays before it settles.
    const p = counted(
      "long-shrink",
      fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 20, maxLength: 80 }),
      async (xs, _call, ctx, api) => {
        await api.get(E1);
        ctx.expect.that(xs.filter((x) => x > 500_000).length < 3, "fewer than three large numbers", { reason: "total" });
      },
      { maxRequests: 40 },
    );
    const { results } = await runAgainstReference([p.check], SETTINGS);
    expect(results[0].status).toBe("failed");
    expect(results[0].reason).toBe("total");
    expect(results[0].property?.counterexample).toBeTruthy();
    // The property confirms its shrunk case itself: the check is not run twice more, and its one run stays within the budget.
    expect(p.calls.length).toBe(1);
    expect(p.calls[0]).toBeLessThanOrEqual(40);
    expect(results[0].requests).toBeLessThanOrEqual(40);
  });

  it("cases discarded as not applicable spend the budget too (the cases a verdict needs may spend three budgets), and fewer than 10 completed runs is not exercised, with the count", async () => {
    const p = counted("mostly-discarded", fc.nat(), async (_v, call, _ctx, api) => {
      await api.get(E1);
      if (call % 60 !== 0) throw new Skip("not applicable here");
    });
    const small = counted("small-budget", fc.nat(), async (_v, _call, _ctx, api) => void (await api.get(E1)), { maxRequests: 3 });
    const { results } = await runAgainstReference([p.check, small.check], SETTINGS);
    expect(results.map((r) => [r.status, r.skipKind])).toEqual([
      ["skipped", "not-exercised"],
      ["skipped", "not-exercised"],
    ]);
    expect(results[0].message).toMatch(
      new RegExp(
        String.raw`^not exercised: only [0-9] of the 100 generated case\(s\) ran, fewer than the 10 a verdict needs: stopped before the next case would pass the property's budget of ${OUTLAY} requests for the cases a verdict needs \(\d+ sent, the costliest case took \d+\); \d+ generated case\(s\) discarded`,
      ),
    );
    expect(p.calls[0]).toBeLessThanOrEqual(OUTLAY);
    expect(results[1].message).toMatch(
      /^not exercised: only [0-9] of the 100 generated case\(s\) ran, fewer than the 10 a verdict needs: stopped before the next case would pass the property's budget of 9 requests for the cases a verdict needs/,
    );
  });
});

describe("what ends a property without a counterexample", () => {
  it("a network error ends it at once as errored: no case is sent after it, nothing is shrunk", async () => {
    let after = -1;
    const p = counted("network", fc.array(fc.nat(), { maxLength: 20 }), async (xs, call, _ctx, api) => {
      await api.get(E1);
      if (after >= 0) after++;
      if (xs.length > 3) {
        after = 0;
        throw new NetworkError("connection reset", { method: "GET", url: "http://x" + E1 } as Exchange);
      }
    });
    const { results } = await runAgainstReference([p.check], SETTINGS);
    expect(results[0].status).toBe("errored");
    expect(results[0].message).toContain("connection reset");
    expect(after).toBe(0);
  });

  it("a confirming replay that is discarded leaves the original failure, labelled intermittent", async () => {
    const p = counted("replay-discarded", fc.constant(1), async (_v, call) => {
      if (call === 0) throw new CheckFailure("the first case broke the rule", { reason: "same-id", expected: "a", got: "b" });
      throw new Skip("not applicable on the second try");
    });
    const { results } = await runAgainstReference([p.check], SETTINGS);
    expect(results[0].status).toBe("failed");
    expect(results[0].reason).toBe("same-id");
    expect(results[0].message).toContain("the first case broke the rule");
    expect(results[0].property?.reproducible).toBe("intermittent");
    expect(results[0].recurrence).toBe("intermittent");
  });

  it("a forbidden write seen applied stays reproducible when its replay, on the object already changed, passes", async () => {
    const p = counted("replay-after-state-change", fc.constant(1), async (_v, call) => {
      if (call > 0) return;
      const failure = new CheckFailure("the refused write changed the workbook", { reason: "not-applied", expected: "a", got: "b" });
      failure.stateChange = true;
      throw failure;
    });
    const { results } = await runAgainstReference([p.check], SETTINGS);
    expect(results[0].status).toBe("failed");
    expect(results[0].property?.reproducible).toBe("reproducible");
    expect(results[0].recurrence).toBe("reproducible");
  });
});

describe("a property failure reproduces from its curl lines alone", () => {
  it("the reproduce lines hold the check's setup writes, then every request of the shrunk case", async () => {
    const p = counted(
      "setup-curl",
      fc.nat({ max: 50 }),
      async (n, _call, ctx, api) => {
        await api.get(E1, { limit: String(1 + (n % 3)) });
        ctx.expect.that(n < 10, "a small number", { reason: "limit-caps" });
      },
      {},
      async (ctx) => void (await ctx.api.post("/api/v1/cf-setup-of-the-case", { made: true })),
    );
    const { results } = await runAgainstReference([p.check], SETTINGS);
    const lines = results[0].curl!.split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines[0]).toMatch(/-X POST .*cf-setup-of-the-case/);
    expect(lines.at(-1)).toMatch(/-X GET .*\/api\/v1\/deployments\?limit=/);
    expect(results[0].property?.setupExchanges?.map((e) => e.method)).toEqual(["POST"]);
  });
});

describe("with 2 % of connections reset, properties do not balloon", () => {
  let chaos: ChaosServer;
  beforeAll(async () => (chaos = await startChaos([{ path: /./, mode: "reset", every: 50 }])));
  afterAll(() => chaos?.close());

  it("each property ends (passed, errored or not exercised) within its request budget", async () => {
    const checks = selectChecks(catalogue, undefined, [
      "deployments.list.any-limit",
      "pagination.cursor.any-page-size",
      "errors.no-5xx.valid-reads",
      "errors.no-5xx.invalid-reads",
    ]);
    const outcome = await runChecks(
      checks,
      settingsFor(chaos.ref, { baseUrl: chaos.url, writes: false, timeoutMs: 1000, runs: 100, concurrency: 1 }),
      await Schemas.load(),
    );
    console.log(outcome.results.map((r) => `${r.id}: ${r.status}, ${r.requests} requests`).join("\n"));
    for (const r of outcome.results) {
      expect(["passed", "errored", "skipped"]).toContain(r.status);
      // The largest budget of these is 300; discovery and the check's own setup come on top.
      expect(r.requests ?? 0).toBeLessThanOrEqual(350);
    }
    expect(chaos.hits.get("reset") ?? 0).toBeGreaterThan(0);
  });
});

describe("cases judged at once (casesAtOnce)", () => {
  /** A property over numbers that fails on three large ones, and the most of its cases in flight at one time. */
  function threeLarge(casesAtOnce: number) {
    const flights = inFlight();
    const p = counted(
      "three-large",
      fc.array(fc.integer({ min: 0, max: 1_000_000 }), { maxLength: 12 }),
      async (xs, _call, ctx, api) => {
        await flights.during(() => api.get(E1));
        ctx.expect.that(xs.filter((x) => x > 400_000).length < 3, "fewer than three large numbers", { reason: "total" });
      },
      { casesAtOnce, maxRequests: 600 },
    );
    return { ...p, most: flights.most };
  }

  it("finds and shrinks the same counterexample as one case at a time, with cases in flight together, within the budget", async () => {
    const one = threeLarge(1);
    const four = threeLarge(4);
    const [a, b] = [(await runAgainstReference([one.check], SETTINGS)).results[0], (await runAgainstReference([four.check], SETTINGS)).results[0]];
    expect([a.status, b.status]).toEqual(["failed", "failed"]);
    expect(b.reason).toBe("total");
    expect(b.property?.counterexample).toBe(a.property?.counterexample);
    expect(b.property?.seed).toBe(a.property?.seed);
    expect(one.most()).toBe(1);
    expect(four.most()).toBeGreaterThan(1);
    expect(four.most()).toBeLessThanOrEqual(4);
    expect(b.requests).toBeLessThanOrEqual(600);
  });

  it("a property that holds runs every asked case, at most the number asked for at once", async () => {
    const flights = inFlight();
    const p = counted("holds-at-once", fc.nat(), async (_n, _call, _ctx, api) => void (await flights.during(() => api.get(E1))), { casesAtOnce: 5 });
    const { results } = await runAgainstReference([p.check], { settings: { runs: 40 } });
    expect(results[0].status).toBe("passed");
    expect(p.calls[0]).toBe(40);
    expect(flights.most()).toBe(5);
  });

  it("a network error among cases at once ends the property unshrunk, as errored", async () => {
    const p = counted(
      "network-at-once",
      fc.nat(),
      async (n, call) => {
        if (call === 6) throw new NetworkError("connection reset", { method: "GET", url: "http://x" + E1 } as Exchange);
        void n;
      },
      { casesAtOnce: 4 },
    );
    const { results } = await runAgainstReference([p.check], SETTINGS);
    expect(results[0].status).toBe("errored");
    expect(p.calls[0]).toBeLessThanOrEqual(8);
  });
});

describe("examples: cases every run sends, whatever its seed draws", () => {
  /** A property over naturals below 1000 that fails on the one example no draw reaches, and the values its trials saw. */
  function neverDrawn(casesAtOnce: number) {
    const seen: number[] = [];
    const p = counted(
      `never-drawn-${casesAtOnce}`,
      fc.nat({ max: 999 }),
      async (n, _call, ctx, api) => {
        seen.push(n);
        await api.get(E1);
        ctx.expect.that(n !== 5000, "not the example", { reason: "total" });
      },
      { casesAtOnce, examples: [7000, 5000] },
    );
    return { ...p, seen };
  }

  it("sends the examples first, and reports a failing example as sent", async () => {
    for (const atOnce of [1, 4]) {
      const p = neverDrawn(atOnce);
      const { results } = await runAgainstReference([p.check], { settings: { runs: 20 } });
      expect(results[0].status).toBe("failed");
      expect(results[0].reason).toBe("total");
      expect(results[0].property?.counterexample).toBe("5000");
      expect(p.seen.slice(0, 2)).toEqual([7000, 5000]);
    }
  });

  it("runs the seed's draws after them, on top of the runs asked, where the property holds", async () => {
    const seen: number[] = [];
    const p = counted("examples-hold", fc.nat({ max: 999 }), async (n, _call, _ctx, api) => void (seen.push(n), await api.get(E1)), { examples: [7000, 8000] });
    const { results } = await runAgainstReference([p.check], { settings: { runs: 20 } });
    expect(results[0].status).toBe("passed");
    expect(p.calls[0]).toBe(22);
    expect(seen.slice(0, 2)).toEqual([7000, 8000]);
  });
});

describe("cases at once on one object (sharedObject)", () => {
  /**
   * A property whose cases act on one object: a case over 500 has its write taken (a 2xx to a
   * POST, E3 here) and leaves the object moved until the next case after it puts it back; every
   * other case reads it back and finds it moved. Told apart as one case at a time does, the
   * failure is the taken write's own ("refused"), and it reproduces.
   */
  function onOneObject(opts: PropertyOptions<number>) {
    let moved = false;
    let left = false;
    const flights = inFlight();
    const taken = (n: number) => n > 500;
    const check = group("bounds", [
      {
        // One id: the same seed, the same cases drawn.
        id: "bounds.on-one-object",
        spec: "test",
        level: "MUST",
        title: "on one object",
        kind: "property",
        needs: ["writes", "fixture:deployment", "fixture:environment"],
        async run(ctx) {
          const path = tokenPath(ctx);
          await forAll(
            ctx,
            fc.nat({ max: 1000 }),
            async (n, api) => {
              if (left) [moved, left] = [false, false];
              if (taken(n)) {
                moved = true;
                const res = await flights.during(() => api.post(path, { security_context: { tenant_id: "t" } }));
                left = true;
                ctx.expect.that(res.status >= 400, "the write is refused", { reason: "refused", res });
              } else {
                await flights.during(() => api.get(E1));
                ctx.expect.that(!moved, "the object is as it was", { reason: "refused-unchanged" });
              }
            },
            opts,
          );
        },
      },
    ])[0];
    return { check, most: flights.most };
  }

  it("a batch in which a write was taken counts for nothing: its cases are judged one at a time, and the failure found is that case's own", async () => {
    const alone = onOneObject({});
    const shared = onOneObject({ casesAtOnce: 4, sharedObject: true });
    const [a, b] = [(await runAgainstReference([alone.check], SETTINGS)).results[0], (await runAgainstReference([shared.check], SETTINGS)).results[0]];
    expect([a.status, b.status]).toEqual(["failed", "failed"]);
    expect([a.reason, b.reason]).toEqual(["refused", "refused"]);
    expect(b.property?.reproducible).toBe("reproducible");
    expect(alone.most()).toBe(1);
    expect(shared.most()).toBeGreaterThan(1);
    // Without sharedObject, a case beside the taken write fails in its place, and does not fail again alone.
    const blind = onOneObject({ casesAtOnce: 4 });
    const c = (await runAgainstReference([blind.check], SETTINGS)).results[0];
    expect([c.reason, c.property?.reproducible]).toEqual(["refused-unchanged", "intermittent"]);
  });

  it("cases that are each refused run at once, and every asked case runs", async () => {
    const flights = inFlight();
    const p = counted(
      "refused-at-once",
      fc.nat(),
      async (_n, _call, _ctx, api) => expect((await flights.during(() => api.post(E1, { name: "refused" }))).status).toBeGreaterThanOrEqual(400),
      { casesAtOnce: 4, sharedObject: true },
    );
    const { results } = await runAgainstReference([p.check], { settings: { runs: 40 } });
    expect(results[0].status).toBe("passed");
    expect(p.calls[0]).toBe(40);
    expect(flights.most()).toBe(4);
  });
});
