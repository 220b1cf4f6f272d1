import { beforeAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../core/run/result.js";
import { runChecks } from "../core/run/runner.js";
import { Schemas } from "../core/api/schemas.js";
import type { RunSettings } from "../core/api/settings.js";
import { catalogue } from "../suites/index.js";
import { startWrapping, type WrappingServer } from "./wrapping-server.js";

/**
 * A server that documents its own answer shapes: E14 single-object answers wrapped under `data`,
 * creates answered 201 with a Location header (test/wrapping-server.ts). The suite reads them
 * through the served document, so the full catalogue with writes ends as it does against the
 * plain reference; and the document is fetched once a run, however many checks read it.
 */
const settingsOf = (server: WrappingServer): RunSettings => {
  const c = server.config();
  return {
    baseUrl: c.baseUrl,
    token: c.token,
    tokens: c.tokens,
    fixtures: c.fixtures,
    writes: true,
    unremovableWrites: true,
    deploymentChanges: true,
    adminWrites: true,
    timeoutMs: 5_000,
    runs: 25,
    seed: 42,
    strict: false,
    concurrency: 8,
  };
};

/** What a check ending for want of an id or a record says (core/api/preconditions.ts, suites/lib/e14.ts, suites/documented/examples.ts). */
const WANT_OF_ID = /without what was needed|answered no id|names no id|no id to address/;

async function runAgainst(wrap: boolean): Promise<{ results: CheckResult[]; documentReads: number; documentRequests: number }> {
  const server = await startWrapping({ wrap });
  try {
    const outcome = await runChecks(catalogue, settingsOf(server), await Schemas.load());
    return { results: outcome.results, documentReads: server.documentReads, documentRequests: server.documentRequests };
  } finally {
    await server.close();
  }
}

describe("a server that wraps its E14 answers and documents it", () => {
  let plain: Awaited<ReturnType<typeof runAgainst>>;
  let wrapped: Awaited<ReturnType<typeof runAgainst>>;
  beforeAll(async () => {
    plain = await runAgainst(false);
    wrapped = await runAgainst(true);
  });

  it("no check ends not verifiable, errored or failed for want of an id or a record", () => {
    const lost = wrapped.results.filter((r) => r.status !== "passed" && WANT_OF_ID.test(r.message));
    expect(lost.map((r) => `${r.status} ${r.id}: ${r.message}`)).toEqual([]);
  });

  it("every check ends as it does against the plain reference", () => {
    const before = new Map(plain.results.map((r) => [r.id, r.status]));
    const changed = wrapped.results.filter((r) => before.get(r.id) !== r.status).map((r) => `${r.id}: ${before.get(r.id)} -> ${r.status} (${r.message})`);
    expect(changed).toEqual([]);
  });

  it("reads the served document once a run (the auth probes' keyless requests are no reads)", () => {
    expect([plain.documentReads, wrapped.documentReads]).toEqual([1, 1]);
  });
});
