import { describe, expect, it } from "vitest";
import { checksNamed } from "../suites/index.js";
import { runAgainstReference } from "./reference-run.js";

/** Issue 13 §1: an invariant judges what the selected checks send, and says so when nothing applied. */
describe("invariants watch the run's traffic", () => {
  it("with no traffic that carries what the rule is about, an invariant is not exercised, naming what it needed", async () => {
    const checks = checksNamed("env-vars.mask.every-answer", "deployments.list.schema");
    const o = await runAgainstReference(checks);
    const r = o.results.find((x) => x.id === "env-vars.mask.every-answer")!;
    expect([r.status, r.skipKind]).toEqual(["skipped", "not-exercised"]);
    expect(r.message).toMatch(/^not exercised: no answer carried environment variables or deployment settings .*exchanges observed/);
    expect(o.results.map((x) => x.id)).toEqual(["deployments.list.schema", "env-vars.mask.every-answer"]);
  });

  it("fed by the checks selected beside it (discovery and cleanup included), an invariant passes and says on how many exchanges it held", async () => {
    const checks = checksNamed("env-vars.mask.every-answer", "errors.no-5xx.every-exchange", "env-vars.put.listed");
    const o = await runAgainstReference(checks);
    for (const id of ["env-vars.mask.every-answer", "errors.no-5xx.every-exchange"]) {
      const r = o.results.find((x) => x.id === id)!;
      expect([r.status, r.message]).toEqual(["passed", expect.stringMatching(/^held on \d+ of \d+ exchanges$/)]);
    }
  });
});

describe("an invariant broken in several ways", () => {
  it("reports every distinct defect of its rule, once each with its count, not only the first, so that fixing one does not reveal the next", async () => {
    const { InvariantWatch, invariant } = await import("../core/run/invariants.js");
    const { groupedById } = await import("../core/check/check.js");
    const [rule] = groupedById([
      invariant({
        id: "resources.schema.every-answer",
        spec: "test",
        level: "MUST",
        title: "test",
        applicable: "a body with a kind",
        watch: () => (x) => {
          const body = x.body as { kind?: string; at?: number } | undefined;
          if (!body?.kind) return undefined;
          if (body.kind === "good") return "held";
          return { reason: "status", message: `a ${body.kind} body`, expected: "good", got: `/items/${body.at}/kind must be good` };
        },
      }),
    ]);
    const watch = new InvariantWatch([rule], {} as never);
    const answer = (path: string, body: object) => {
      const url = new URL(`http://server${path}`);
      const exchange = { method: "GET", url: url.href, requestHeaders: {}, durationMs: 0, curl: `curl ${url.href}` };
      watch.see(exchange, { method: "GET", url, status: 200, text: JSON.stringify(body), body, isJson: true });
    };
    answer("/a", { kind: "short", at: 0 });
    answer("/b", { kind: "good" });
    answer("/c", { kind: "short", at: 3 });
    answer("/d", { kind: "long", at: 1 });
    const [r] = watch.results();
    expect([r.status, r.reason, r.got]).toEqual(["failed", "status", "/items/0/kind must be good"]);
    expect(r.message).toBe("a short body. 1 other distinct defect(s) of the same rule: a long body (/items/1/kind must be good; GET /d)");
    expect(r.exchanges?.map((x) => x.url)).toEqual(["http://server/a", "http://server/d"]);
  });
});
