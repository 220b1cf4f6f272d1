import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { group } from "../core/check/check.js";
import { specEndpoints, type SpecEndpoint } from "../core/api/endpoints.js";
import type { Response } from "../core/transport/http.js";
import { Blocked, CheckFailure, NotVerifiable, Skip } from "../core/model/outcome.js";
import { requireAnswer } from "../core/api/preconditions.js";
import { forAll } from "../core/run/property.js";
import { ConsoleReporter } from "../core/reporters/console.js";
import { buildReport } from "../core/run/report.js";
import { runChecks } from "../core/run/runner.js";
import type { CheckResult } from "../core/run/result.js";
import { rootCauses, summarise } from "../core/run/verdict.js";
import { gateExitCode } from "../core/run/gate.js";
import { missingEndpointFaults } from "../reference/faults/missing-endpoints.js";
import { catalogue, checksNamed } from "../suites/index.js";
import { Schemas } from "../core/api/schemas.js";
import { validateConfig } from "../core/api/settings.js";
import { startReference } from "../reference/server.js";
import { OPERATIONS } from "../core/api/operations.js";
import { matchOperation } from "../core/api/match.js";
import { newItem } from "../reference/store.js";
import { describeResults, runAgainstReference, settingsFor } from "./reference-run.js";

/** Properties at 5 runs: enough to meet their minimum, and the gate is about preconditions, not depth. */
const QUICK = { settings: { runs: 5 } };

const answer = (status: number, body: unknown = {}): Response => ({
  status,
  headers: {},
  text: JSON.stringify(body),
  body,
  isJson: true,
  exchange: { method: "PUT", url: "http://server.test/api/v1/deployments/1/workbooks/by-slug/x", requestHeaders: {}, status, durationMs: 1, curl: "curl …" },
});

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (err) {
    return err;
  }
  return undefined;
};

describe("preconditions: the runner, not the check, decides skipped, not verifiable or blocked", () => {
  it("a spec'd endpoint answering 404, 5xx or the wrong shape blocks, naming its owner check and the request", () => {
    for (const status of [404, 500, 502]) {
      const err = thrown(() => requireAnswer(answer(status), "E11", "creating a workbook"));
      expect(err).toBeInstanceOf(Blocked);
      expect((err as Blocked).rootCause).toBe(`upsert.create.absent-slug-creates: PUT ${specEndpoints.E11.path} answered ${status}`);
      expect((err as Blocked).message).toContain("creating a workbook: PUT /api/v1/deployments/1/workbooks/by-slug/x");
    }
    expect(thrown(() => requireAnswer(answer(200, { no: "id" }), "E11", "creating", (r) => Number.isSafeInteger(r.body?.id)))).toBeInstanceOf(Blocked);
    expect(requireAnswer(answer(200, { id: 7 }), "E11", "creating")).toEqual({ id: 7 });
  });

  it("an E14 endpoint is not verifiable; a refused token is the user's setup", () => {
    expect(thrown(() => requireAnswer(answer(404), "E14", "creating a folder"))).toBeInstanceOf(NotVerifiable);
    expect(thrown(() => requireAnswer(answer(403), "E11", "creating"))).toBeInstanceOf(Skip);
  });

  it("the owner of an endpoint neither skips nor blocks on it: it fails", () => {
    for (const status of [403, 404, 500])
      expect(thrown(() => requireAnswer(answer(status), "E11", "creating", undefined, specEndpoints.E11.root))).toBeInstanceOf(CheckFailure);
  });

  it("every spec'd endpoint has an owner: a MUST check of the catalogue that cites it", () => {
    for (const [endpoint, { root }] of Object.entries(specEndpoints)) {
      const owner = catalogue.find((c) => c.id === root);
      expect(owner, `${endpoint}: ${root}`).toBeDefined();
      expect(owner!.level).toBe("MUST");
      expect(owner!.spec).toMatch(new RegExp(`\\b${endpoint}\\b`));
    }
  });

  it("no suite decides a skip on its own: the checks declare needs, the runner decides", async () => {
    const { readdir, readFile } = await import("node:fs/promises");
    // Every module under suites/, each group's folder as well as lib/: a need that holds on some servers only is ctx.needHere's.
    const dir = new URL("../suites/", import.meta.url);
    const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(100);
    const skipping: string[] = [];
    for (const f of files) if ((await readFile(new URL(f, dir), "utf8")).includes("new Skip(")) skipping.push(f);
    expect(skipping).toEqual([]);
  });
});

/**
 * The sections each check sent requests to in a clean run of the same seed and effort. A check that
 * sent none to an endpoint meets the same answers with the endpoint gone (discovery reads E1, E2,
 * E8 and E14, none of which these faults take away), so it passes there as it passes here
 * (test/clean.test.ts): a fault's run needs only the checks that send to its endpoint.
 */
let sectionsSent: Promise<Map<string, Set<string>>> | undefined;
function sectionsOfACleanRun(): Promise<Map<string, Set<string>>> {
  sectionsSent ??= (async () => {
    const ref = await startReference();
    const sent = new Map<string, Set<string>>();
    try {
      await runChecks(catalogue, settingsFor(ref, QUICK.settings), await Schemas.load(), {
        onExchange: (e, checkId = "(discovery)") => {
          const section = matchOperation(OPERATIONS, e.method, e.url)?.operation.section;
          if (section) sent.set(checkId, (sent.get(checkId) ?? new Set()).add(section));
        },
      });
    } finally {
      await ref.close();
    }
    return sent;
  })();
  return sectionsSent;
}

describe("a missing or broken spec'd endpoint never gives a green run", () => {
  for (const fault of missingEndpointFaults) {
    const endpoint = fault.routes![0] as SpecEndpoint;
    const { root, method, path } = specEndpoints[endpoint];
    const status = fault.name.endsWith("500") ? 500 : 404;
    it(`${fault.name}: the run fails, ${root} is the one failure, the checks that build on ${endpoint} are blocked by it`, async () => {
      const sent = await sectionsOfACleanRun();
      expect([...(sent.get("(discovery)") ?? [])]).not.toContain(endpoint);
      const building = catalogue.filter((c) => sent.get(c.id)?.has(endpoint));
      expect(building.map((c) => c.id)).toContain(root);
      const { results } = await runAgainstReference(building, { faults: [fault.name], ...QUICK });
      const ids = (s: CheckResult["status"]) => results.filter((r) => r.status === s).map((r) => r.id);
      expect(gateExitCode(results, { strict: false })).toBe(1);
      expect(ids("failed"), describeResults({ results } as any)).toEqual([root]);
      expect(ids("blocked").length).toBeGreaterThan(0);
      expect(rootCauses(results)).toEqual([
        { rootCause: `${root}: ${method} ${path} answered ${status}`, root: expect.objectContaining({ check: root }), blocked: ids("blocked") },
      ]);
      // Not skipped, not errored: every other check passed (its scenario did not need the endpoint).
      expect([...ids("skipped"), ...ids("errored")]).toEqual([]);
    });
  }

  for (const variant of ["without-settings-read", "without-folder-creation"]) {
    it(`${variant}: an E14 endpoint a server may lack makes its checks not verifiable, never failed, and the summary counts them`, async () => {
      const { results } = await runAgainstReference(catalogue, { variants: [variant], ...QUICK });
      const summary = summarise(results);
      expect(results.filter((r) => r.status !== "passed" && r.skipKind !== "not-verifiable").map((r) => `${r.id}: ${r.status}`)).toEqual([]);
      expect(summary.skippedBy.notVerifiable).toBeGreaterThan(0);
      expect(summary.skippedBy.notVerifiable).toBe(summary.skipped);
      expect(summary.mustRules.verified).toBeLessThan(summary.mustRules.total);
      expect(gateExitCode(results, { strict: false })).toBe(0);
    });
  }
});

describe("the summary and the reports", () => {
  const result = (id: string, level: "MUST" | "SHOULD", status: CheckResult["status"], extra: Partial<CheckResult> = {}): CheckResult => ({
    id,
    group: "g",
    title: id,
    spec: "E11",
    level,
    kind: "example",
    status,
    message: "",
    durationMs: 0,
    ...extra,
  });
  const results = [
    result("a", "MUST", "passed"),
    result("b", "MUST", "failed"),
    result("c", "MUST", "blocked", { root: { check: "b" }, blockedBy: "b: PUT /x answered 500" }),
    result("d", "MUST", "blocked", { root: { check: "b" }, blockedBy: "b: PUT /x answered 500" }),
    result("e", "MUST", "skipped", { skipKind: "not-exercised" }),
    result("f", "MUST", "skipped", { skipKind: "not-verifiable" }),
    result("g", "SHOULD", "passed"),
  ];

  it("a MUST rule is verified when its check passed: not when it failed, was blocked or skipped", () => {
    const s = summarise(results);
    expect(s.mustRules).toEqual({ verified: 1, total: 6 });
    expect(s.skippedBy).toEqual({ user: 0, notVerifiable: 1, notExercised: 1 });
  });

  it("blocked checks are grouped under their root cause, in report.json and on the console", () => {
    const report = buildReport(
      { results, leftovers: [], interrupted: false, durationMs: 1, startedAt: "" },
      { name: "t", version: "0", baseUrl: "http://x", seed: 1, runs: 1, writes: true },
    );
    expect(report.rootCauses).toEqual([{ rootCause: "b: PUT /x answered 500", root: { check: "b" }, blocked: ["c", "d"] }]);
    const lines: string[] = [];
    new ConsoleReporter((l) => lines.push(l), { gate: { strict: false } }).finish(report, 1);
    expect(lines.join("\n")).toContain("verified 1 of 6 MUST rules");
    expect(lines.join("\n")).toContain("1 not verifiable on this server, 1 not exercised");
    expect(lines.filter((l) => l.includes("blocked by b: PUT /x answered 500: c, d"))).toHaveLength(1);
  });
});

describe("no vacuous pass: a property that did not run enough is not exercised", () => {
  const property = (name: string, trial: () => Promise<void>, timeLimitMs?: number) =>
    group("gate", [
      { id: `gate.${name}`, spec: "test", level: "MUST", title: name, kind: "property", run: (ctx) => forAll(ctx, fc.integer(), trial, { timeLimitMs }) },
    ])[0];

  it("every case discarded, or cut off by the time limit after few runs: skipped as not exercised, with the count", async () => {
    const discarded = property("discarded", async () => {
      throw new Skip("not applicable here");
    });
    const slow = property("slow", () => new Promise((resolve) => setTimeout(resolve, 40)), 100);
    const { results } = await runAgainstReference([discarded, slow], QUICK);
    expect(results.map((r) => [r.status, r.skipKind])).toEqual([
      ["skipped", "not-exercised"],
      ["skipped", "not-exercised"],
    ]);
    expect(results[0].message).toMatch(
      /^not exercised: only 0 of the 5 generated case\(s\) ran, fewer than the 5 a verdict needs; \d+ generated case\(s\) discarded/,
    );
    expect(results[1].message).toMatch(
      /^not exercised: only [0-4] of the 5 generated case\(s\) ran, fewer than the 5 a verdict needs: stopped at the property's time limit of 100 ms/,
    );
  });
});

describe("what the config can supply instead of an E14 endpoint", () => {
  it("the config schema takes features and scratchFolderIds", () => {
    expect(validateConfig({ baseUrl: "https://tenant.example.com", features: { auditLog: false }, fixtures: { scratchFolderIds: [3, 4] } })).toEqual([]);
    expect(validateConfig({ baseUrl: "https://tenant.example.com", features: { audit: false } })).not.toEqual([]);
  });

  it("a feature declared off skips its checks as the user's choice, naming the key", async () => {
    const audit = catalogue.filter((c) => c.group === "audit");
    const { results } = await runAgainstReference(audit, { settings: { features: { auditLog: false } } });
    expect(results.map((r) => [r.status, r.skipKind])).toEqual(audit.map(() => ["skipped", "user"]));
    expect(results[0].message).toContain("features.auditLog: false");
  });

  it("fixtures.scratchFolderIds stand in for folder creation: the checks that need folders of their own run, and pass", async () => {
    const ref = await startReference({ variants: ["without-folder-creation"] });
    try {
      const settings = settingsFor(ref, { runs: 5 });
      const me = ref.app.store.tokens.get(settings.token!)!;
      const dep = Number(settings.fixtures.deploymentId ?? ref.seeded.store.deployments[0].id);
      const spare = [1, 2].map((i) => newItem(ref.app.store, { deploymentId: dep, type: "FOLDER", name: `scratch ${i}`, folderId: null, createdBy: me.id }).id);
      const checks = checksNamed("bulk-move.apply.reads-back", "bulk-move.items.each-once", "bulk-move.response.moved-as-stored");
      const without = await runChecks(checks, settings, await Schemas.load());
      expect(without.results.map((r) => r.skipKind)).toEqual(checks.map(() => "not-verifiable"));
      const withSpare = await runChecks(checks, { ...settings, fixtures: { ...settings.fixtures, scratchFolderIds: spare } }, await Schemas.load());
      expect(describeResults(withSpare)).toBe("");
      expect(withSpare.results.map((r) => r.status)).toEqual(checks.map(() => "passed"));
      expect(spare.every((id) => ref.app.store.items.has(id))).toBe(true);
    } finally {
      await ref.close();
    }
  });
});
