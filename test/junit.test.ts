import { readFileSync } from "node:fs";
import { join } from "node:path";
import { validateXML } from "xmllint-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { ctrfReport } from "../core/reporters/ctrf.js";
import { junitXml } from "../core/reporters/junit.js";
import type { Report } from "../core/run/report.js";
import type { CheckResult } from "../core/run/result.js";
import { faultyRun } from "./report-run.js";

/** The JUnit schema of Jenkins' xunit plugin, the strictest reader (see the file's header). */
const XSD = readFileSync(join(import.meta.dirname, "fixtures", "jenkins-junit-10.xsd"), "utf8");

async function schemaErrors(xml: string): Promise<string[]> {
  const r = await validateXML({ xml: [{ fileName: "junit.xml", contents: xml }], schema: [XSD] });
  return r.errors.map((e) => e.rawMessage);
}

const cases = (xml: string) =>
  [...xml.matchAll(/<testcase [^>]*?\sname="([^"]*)"[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g)].map((m) => ({ name: m[1], body: m[2] ?? "" }));
const caseOf = (xml: string, id: string) => cases(xml).find((c) => c.name.startsWith(`${id} `))!;

let run: Awaited<ReturnType<typeof faultyRun>>;
let strict: Awaited<ReturnType<typeof faultyRun>>;
beforeAll(async () => {
  [run, strict] = [await faultyRun(["junit", "json", "ctrf"]), await faultyRun(["junit", "json"], ["--strict"])];
});

describe("junit.xml", () => {
  it("validates against the strict Jenkins xunit schema, with --strict too", async () => {
    expect(await schemaErrors(run.read("junit.xml"))).toEqual([]);
    expect(await schemaErrors(strict.read("junit.xml"))).toEqual([]);
  });

  it("the schema in the test rejects what it must (skipped on testsuites, an exponent time)", async () => {
    expect(await schemaErrors(`<testsuites skipped="1"><testsuite name="a" tests="0" failures="0" errors="0"/></testsuites>`)).not.toEqual([]);
    expect(await schemaErrors(`<testsuites><testsuite name="a" tests="0" failures="0" errors="0" time="1e-3"/></testsuites>`)).not.toEqual([]);
  });

  it("SHOULD findings are passed testcases carrying the finding without --strict, failures under --strict; the exit code agrees", () => {
    const finding = "deployments.list.limit-zero-rejected";
    expect(run.report().results.find((r) => r.id === finding)?.status).toBe("failed");
    const lenient = caseOf(run.read("junit.xml"), finding);
    expect(lenient.body).not.toContain("<failure");
    expect(lenient.body).toMatch(/<system-out>SHOULD finding[\s\S]*expected: a 4xx status/);
    expect(caseOf(strict.read("junit.xml"), finding).body).toMatch(/<failure type="SHOULD" message="SHOULD Pagination styles 1/);
    // The MUST failure of the property is a failure either way.
    const must = caseOf(run.read("junit.xml"), "pagination.cursor.any-page-size").body;
    expect(must).toMatch(/<failure type="MUST"/);
    expect(must).toContain("counterexample (shrunk)");
    const failures = (xml: string) => Number(xml.match(/<testsuites [^>]*failures="(\d+)"/)![1]);
    expect(failures(run.read("junit.xml"))).toBe(run.report().results.filter((r) => r.status === "failed" && r.level === "MUST").length);
    expect(failures(strict.read("junit.xml"))).toBe(strict.report().summary.failed);
  });

  it("a skipped testcase says why", () => {
    const skipped = run.report().results.filter((r) => r.status === "skipped");
    expect(skipped.length).toBeGreaterThan(0);
    for (const r of skipped) expect(caseOf(run.read("junit.xml"), r.id).body).toContain(`<skipped message="${r.message.replace(/"/g, "&quot;")}"/>`);
  });

  it("suites carry time and timestamp; testcases a time", () => {
    const xml = run.read("junit.xml");
    for (const m of xml.matchAll(/<testsuite [^>]*>/g)) expect(m[0]).toMatch(/ time="\d+\.\d{3}" timestamp="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"/);
    expect(cases(xml).length).toBe(run.report().summary.total);
  });

  it("a blocked check is a failure naming its root cause; control characters from a server stay valid XML", async () => {
    const base = run.report();
    const template = base.results[0];
    const blocked: CheckResult = {
      ...template,
      id: "x.blocked",
      status: "blocked",
      message: "precondition failed",
      root: { check: "workbooks.list.schema" },
      blockedBy: "workbooks.list.schema: GET /workbooks answered 500",
    };
    const weird: CheckResult = { ...template, id: "x.weird", status: "failed", level: "MUST", message: 'got \u0001\u0008 ]]> <tag> & "quotes"\nsecond line' };
    const errored: CheckResult = { ...template, id: "x.errored", status: "errored", message: "network: connection reset" };
    const report: Report = { ...base, results: [blocked, weird, errored] };
    const xml = junitXml(report, { strict: false });
    expect(await schemaErrors(xml)).toEqual([]);
    expect(caseOf(xml, "x.blocked").body).toMatch(
      /<failure type="blocked" message="MUST [^"]*: blocked by workbooks.list.schema: GET \/workbooks answered 500"/,
    );
    expect(caseOf(xml, "x.errored").body).toMatch(/<error type="errored" message="network: connection reset"/);
  });

  it("holds no token", () => {
    for (const secret of run.secrets) expect(run.read("junit.xml")).not.toContain(secret);
  });
});

describe("ctrf-report.json (Common Test Report Format), beside JUnit", () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  (((addFormatsModule as any).default ?? addFormatsModule) as (ajv: Ajv) => Ajv)(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", "ctrf.schema.json"), "utf8")));

  it("validates against the CTRF schema, and counts as failed exactly what JUnit counts as failures and errors", () => {
    const ctrf = JSON.parse(run.read("ctrf-report.json"));
    expect(validate(ctrf), JSON.stringify(validate.errors)).toBe(true);
    expect(ctrf.results.tests).toHaveLength(run.report().results.length);
    const xml = run.read("junit.xml");
    const junitFailing = cases(xml)
      .filter((c) => /<(failure|error) /.test(c.body))
      .map((c) => c.name);
    expect(ctrf.results.tests.filter((t: any) => t.status === "failed").map((t: any) => t.name)).toEqual(junitFailing);
    expect(ctrf.results.summary.failed).toBe(junitFailing.length);
    // A SHOULD finding is "other", with the server's own status kept.
    const finding = ctrf.results.tests.find((t: any) => t.labels.check === "deployments.list.limit-zero-rejected");
    expect([finding.status, finding.rawStatus]).toEqual(["other", "failed"]);
    const property = ctrf.results.tests.find((t: any) => t.labels.check === "pagination.cursor.any-page-size");
    expect(property.parameters.seed).toBe(run.report().results.find((r) => r.id === "pagination.cursor.any-page-size")!.property!.seed);
    // A property confirms its shrunk case once (core/run/property.ts): one retry, both runs failed.
    expect(property.retries).toBe(1);
    for (const secret of run.secrets) expect(run.read("ctrf-report.json")).not.toContain(secret);
  });

  it("an intermittent failure is flaky; a known failure of the baseline is other, with its reason in extra", () => {
    const base = run.report();
    const failed = base.results.filter((r) => r.status === "failed");
    const [flaky, known] = failed;
    const results = base.results.map((r) => (r.id === flaky.id ? { ...r, recurrence: "intermittent" as const } : r));
    const ctrf = ctrfReport({ ...base, results }, { strict: false, baseline: { knownFailures: [{ id: known.id, reason: "until ticket 9" }] } });
    expect(validate(ctrf), JSON.stringify(validate.errors)).toBe(true);
    const test = (id: string) => ctrf.results.tests.find((t) => t.labels.check === id)!;
    expect(test(flaky.id)).toMatchObject({ status: "failed", flaky: true, extra: { recurrence: "intermittent" } });
    expect(ctrf.results.summary.flaky).toBe(1);
    expect(test(known.id)).toMatchObject({ status: "other", rawStatus: "failed", extra: { baseline: { known: true, reason: "until ticket 9" } } });
  });
});
