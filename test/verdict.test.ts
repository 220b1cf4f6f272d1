import { describe, expect, it } from "vitest";
import { type GateOptions, gateExitCode, judgingOf, shownAs, verdict } from "../core/run/gate.js";
import { judged } from "../core/run/conformance.js";
import { ConsoleReporter } from "../core/reporters/console.js";
import { ctrfReport } from "../core/reporters/ctrf.js";
import { reportHtml } from "../core/reporters/html.js";
import { junitXml } from "../core/reporters/junit.js";
import { mergeReports } from "../core/reporters/merge.js";
import { buildReport } from "../core/run/report.js";
import type { CheckResult } from "../core/run/result.js";
import { label, settle, shownLabel, withRecurrence } from "../core/run/verdict.js";

const x = (url: string, status: number) => ({ method: "GET", url, requestHeaders: {}, status, durationMs: 0, curl: `curl ${url}` });
const result = (id: string, status: CheckResult["status"], extra: Partial<CheckResult> = {}): CheckResult => ({
  id,
  group: id.split(".")[0],
  title: id,
  spec: "E1",
  level: "MUST",
  kind: "example",
  status,
  message: `${id} ${status}`,
  durationMs: 1,
  ...extra,
});

describe("a root that passed never blocks", () => {
  it("checks blocked under a root that passed: the first fails on the exchange (reason precondition), the rest are blocked under it, never under the passed root", () => {
    const page = "http://h/api/v1/deployments?offset=300";
    // The class measured on a server: 157 checks "blocked by deployments.list.schema" while that check passed.
    const victims = Array.from({ length: 157 }, (_, i) =>
      result(`workbooks.c${i}`, "blocked", {
        root: { check: "deployments.list.schema", exchange: { method: "GET", url: page, status: 200 } },
        blockedBy: "deployments.list.schema: GET /api/v1/deployments: walk broke",
        exchange: x(page, 200),
      }),
    );
    const out = settle([result("deployments.list.schema", "passed"), ...victims]);
    expect(out.filter((r) => r.root?.check === "deployments.list.schema")).toEqual([]);
    const failed = out.filter((r) => r.status === "failed");
    expect(failed.map((r) => `${r.id} ${r.reason}`)).toEqual(["workbooks.c0 precondition"]);
    expect(failed[0].message).toContain("its owner deployments.list.schema passed");
    const blocked = out.filter((r) => r.status === "blocked");
    expect(blocked).toHaveLength(156);
    for (const r of blocked) expect(r.root).toEqual({ check: "workbooks.c0", exchange: { method: "GET", url: page, status: 200 } });
  });

  it("a root that failed keeps what it blocks", () => {
    const blockedBy = "deployments.list.schema: GET /api/v1/deployments answered 500";
    const out = settle([result("deployments.list.schema", "failed"), result("w.a", "blocked", { root: { check: "deployments.list.schema" }, blockedBy })]);
    expect(out.map((r) => `${r.id} ${r.status} ${r.root?.check ?? ""}`.trim())).toEqual([
      "deployments.list.schema failed",
      "w.a blocked deployments.list.schema",
    ]);
  });
});

describe("intermittent failures (README, Verdicts)", () => {
  const gate: GateOptions = { strict: false };
  const first = result("a.flaky", "failed", { reason: "same-id" });
  it("one that failed once and passed on both re-runs is labelled intermittent and fails nothing, MUST or not", () => {
    const r = withRecurrence(first, ["passed", "passed"]);
    expect([label(r), r.failedRuns, r.runs, verdict(r, gate)]).toEqual(["intermittent", 1, 3, "finding"]);
    expect(shownAs(r, gate)).toBe("intermittent (failed 1 of 3 runs: not failing)");
    expect(gateExitCode([r], gate)).toBe(0);
  });
  it("one that failed on a re-run too fails a MUST; one that failed every time is reproducible", () => {
    const repeated = withRecurrence(first, ["failed", "passed"]);
    expect([label(repeated), verdict(repeated, gate), gateExitCode([repeated], gate)]).toEqual(["intermittent", "failure", 1]);
    const reproducible = withRecurrence(first, ["failed", "failed"]);
    expect([label(reproducible), reproducible.recurrence, gateExitCode([reproducible], gate)]).toEqual(["failed", "reproducible", 1]);
  });
  it("a re-run that never reached the scenario (blocked, skipped, errored) does not make a failure intermittent", () => {
    const unreached = withRecurrence(first, ["blocked", "errored"]);
    expect([label(unreached), unreached.recurrence, unreached.failedRuns, unreached.runs, gateExitCode([unreached], gate)]).toEqual([
      "failed",
      "reproducible",
      1,
      1,
      1,
    ]);
    const oncePassed = withRecurrence(first, ["skipped", "passed"]);
    expect([label(oncePassed), oncePassed.failedRuns, oncePassed.runs, shownAs(oncePassed, gate)]).toEqual([
      "intermittent",
      1,
      2,
      "intermittent (failed 1 of 2 runs: not failing)",
    ]);
  });
});

describe("one result, one label in every output", () => {
  const root = result("deployments.list.schema", "failed", { reason: "schema:DeploymentList", exchange: x("http://h/api/v1/deployments", 200) });
  const results: CheckResult[] = [
    root,
    result("versions.list.sorted", "blocked", { level: "SHOULD", root: { check: root.id }, blockedBy: `${root.id}: GET /api/v1/deployments answered 200` }),
    withRecurrence(result("upsert.create.race", "failed", { reason: "same-id" }), ["passed", "passed"]),
    result("spec.document.title", "failed", { level: "SHOULD", reason: "title" }),
    result("documented.resources.create-read-delete", "skipped", { skipKind: "not-verifiable" }),
    result("auth.reject.status-401", "errored"),
  ];
  const gate: GateOptions = { strict: false, baseline: { knownFailures: [{ id: "auth.reject.status-401", reason: "ticket 9" }] } };
  const report = judged(
    buildReport(
      { results, leftovers: [], interrupted: false, durationMs: 5, startedAt: new Date(0).toISOString() },
      { name: "t", version: "0", baseUrl: "http://h", seed: 1, runs: 1, writes: false },
    ),
    gate,
    {},
  );

  it("JSON, console, JUnit, HTML and CTRF show the judge's label and how it counts", () => {
    const lines: string[] = [];
    new ConsoleReporter((l) => lines.push(l), { gate }).finish(report, report.gate.exitCode);
    const console = lines.join("\n");
    const xml = junitXml(report, gate);
    const html = reportHtml(report, gate);
    const ctrf = ctrfReport(report, gate).results.tests;
    for (const r of report.results) {
      const shown = shownAs(r, gate);
      const word = shownLabel(r, judgingOf(gate));
      expect(r.label, r.id).toBe(word);
      expect(ctrf.find((t) => t.labels.check === r.id)!.extra.label, r.id).toBe(shown);
      expect(html, r.id).toMatch(
        new RegExp(
          `<span class="badge ${["SHOULD finding", "known", "intermittent"].includes(word) ? "finding" : r.status}">${word}</span><span>${r.level}</span><span class="id">${r.id.replace(/\./g, "\\.")}</span>`,
        ),
      );
      if (r.status === "failed" || r.status === "errored") expect(console, r.id).toContain(`── ${r.id} ${shown}`);
      if (verdict(r, gate) === "finding") expect(xml, r.id).toContain(shown);
    }
    expect(shownAs(results[1], gate)).toBe("blocked (SHOULD finding)");
    expect(shownAs(results[2], gate)).toBe("intermittent (failed 1 of 3 runs: not failing)");
    expect(shownAs(results[5], gate)).toBe("errored, KNOWN (baseline: ticket 9)");
    // The blocked SHOULD check fails nothing: a finding in every count, as JUnit and CTRF count it (not a failure).
    expect(report.summary).toMatchObject({ failed: 1, findings: 2, intermittent: 1, blocked: 0, errored: 1 });
    expect(xml).toMatch(/<testsuites [^>]*failures="1"/);
  });

  it("the baseline names as new only what fails at its level, and merge relabels nothing", () => {
    expect(report.gate.baseline!.new).toEqual(["deployments.list.schema", "versions.list.sorted", "spec.document.title"]);
    const shard = (index: number, rs: CheckResult[]) => ({ file: `s${index}.json`, report: { ...report, shard: { index, count: 2 }, results: rs } });
    const merged = mergeReports(
      [shard(1, report.results.slice(0, 3)), shard(2, report.results.slice(3))],
      report.results.map((r) => r.id),
    );
    const again = judged(merged, gate, {});
    expect(again.results.map((r) => r.label)).toEqual(report.results.map((r) => r.label));
    expect(again.gate.exitCode).toBe(report.gate.exitCode);
  });
});

describe("a schema the generators cannot draw from (issue 28)", () => {
  it("is not verifiable, naming the schema, never an errored check", async () => {
    const { judge } = await import("../core/run/verdict.js");
    const { NotGenerated } = await import("../generators/index.js");
    const j = judge("x.y.z", new NotGenerated("POST /notifications body", "/schedule/cron", "no drawn value matches its pattern"), []);
    expect(j.status).toBe("skipped");
    expect(j.skipKind).toBe("not-verifiable");
    expect(j.message).toContain("POST /notifications body");
  });
});
