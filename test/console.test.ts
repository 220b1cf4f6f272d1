import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../bin/cli.js";
import { annotations, escapeData, escapeProperty, publishToGitHub } from "../core/reporters/github.js";
import { catalogueLines } from "../core/reporters/console.js";
import type { Report } from "../core/run/report.js";
import type { CheckResult } from "../core/run/result.js";
import { rootCauses } from "../core/run/verdict.js";
import { selectChecks } from "../core/run/select.js";
import { catalogue } from "../suites/index.js";
import { cli, faultyRun } from "./report-run.js";

const readOnly = ["--reference", "--read-only", "--check", "deployments.list.*", "upsert.*", "bulk-move.*"];
/** The deployments list checks as the catalogue has them now (not the group's invariant, which watches and is not started): the tests follow the catalogue, not a count. */
const deploymentChecks = selectChecks(catalogue, undefined, ["deployments.list.*"]);
const n = deploymentChecks.length;
/** Those a read-only run starts: the rest are skipped as writes not allowed. */
const readable = deploymentChecks.filter((c) => !c.needs.includes("writes")).length;

describe("console", () => {
  it("groups skips by reason with a count and one example; --verbose lists them", async () => {
    const r = await cli(...readOnly);
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/^SKIP /m);
    const group = r.lines.find((l) => / skipped: writes not allowed/.test(l))!;
    const [, count] = group.match(/^\s+(\d+) skipped/)!;
    expect(Number(count)).toBeGreaterThan(10);
    expect(group).toMatch(/\(e\.g\. (upsert|bulk-move)\.[\w.-]+; --verbose lists all\)/);
    const verbose = await cli(...readOnly, "--verbose");
    expect(verbose.out.match(/^SKIP /gm)?.length).toBe(Number(count));
  });

  it("always ends with the reports written, console or not; without console still the summary line", async () => {
    const out = mkdtempSync(join(tmpdir(), "conformance-console-"));
    const withConsole = await cli("--reference", "--check", "deployments.list.*", "--reporter", "console", "junit", "--out", out);
    expect(withConsole.lines.at(-1)).toBe(`reports: ${join(out, "junit.xml")}`);
    const silent = await cli("--reference", "--read-only", "--check", "deployments.list.*", "--reporter", "junit", "json", "--out", out);
    expect(silent.lines).toHaveLength(3);
    expect(silent.lines[0]).toMatch(new RegExp(`^${n} checks: ${readable} passed, 0 failed`));
    expect(silent.lines[1]).toMatch(/^conformance: passed; verified \d+ of \d+ MUST rules/);
    expect(silent.lines[2]).toBe(`reports: ${join(out, "junit.xml")}, ${join(out, "report.json")}`);
    const none = await cli("--reference", "--check", "deployments.list.schema");
    expect(none.lines.at(-1)).toMatch(/^reports: none written/);
  });

  it("a failed run: no line per pass; after the summary the MUST failure in full first, the skips grouped last", async () => {
    const r = await cli("--reference", "--read-only", "--fault", "deployments-total-off-by-one", "--check", "deployments.list.*", "upsert.*");
    expect(r.code).toBe(1);
    expect(r.out).not.toMatch(/^PASS /m);
    const summary = r.lines.findIndex((l) => /^\d+ checks: /.test(l));
    expect(r.lines.slice(summary + 1, summary + 4)).toEqual([
      "",
      "── deployments.list.total-consistent failed",
      expect.stringMatching(/^MUST E1 \(Lists deployments accessible to the caller\); Pagination styles 1: /),
    ]);
    expect(r.lines.findIndex((l) => / skipped: writes not allowed/.test(l))).toBeGreaterThan(r.lines.findIndex((l) => l.startsWith("reproduce: curl ")));
  });

  it("--quiet: the summary, one line per failure, the verdict and the reports line", async () => {
    const r = await cli("--reference", "--fault", "deployments-total-off-by-one", "--check", "deployments.list.*", "--quiet");
    expect(r.code).toBe(1);
    expect(r.lines[0]).toMatch(new RegExp(`^${n} checks: ${n - 1} passed, 1 failed`));
    expect(r.lines).toHaveLength(4);
    expect(r.lines[1]).toMatch(/^FAIL MUST deployments\.list\.total-consistent {2}\S/);
    expect(r.lines.slice(2)).toEqual([
      expect.stringMatching(/^conformance: FAILED; verified \d+ of \d+ MUST rules/),
      "reports: none written (--reporter junit json html ctrf har write them)",
    ]);
  });

  it("a progress line on a terminal counts finished checks, names the one running and the time; the passes leave no line of their own", async () => {
    const progress: string[] = [];
    const out: string[] = [];
    await main(["--reference", "--check", "deployments.list.*"], { out: (l) => out.push(l), err: () => {}, progress: (l) => progress.push(l) });
    // Checks run side by side (--concurrency): the line counts finished checks, names the oldest running one, and the time.
    const drawn = progress.filter(Boolean);
    const done = drawn.map((l) => Number(/^\[(\d+)\/\d+ done\]/.exec(l)?.[1]));
    expect(done.every(Number.isInteger), drawn.join("\n")).toBe(true);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(done.at(-1)).toBe(n);
    // With nothing running (the last check done), the line is the count and the time, not a blank name.
    expect(drawn.filter((l) => l.includes("  "))).toEqual([]);
    // The one named is the oldest still running, as it finishes (not in the catalogue's order): a check that
    // starts and ends while an older one runs may never be named; those named are the run's, in the line's form.
    const named = drawn.map((l) => /^\[\d+\/\d+ done\] (\S+)( \(\+\d+ more started\))? \d+ s$/.exec(l)?.[1]).filter((id) => id !== undefined);
    expect(named.length, drawn.join("\n")).toBeGreaterThan(0);
    expect(named.filter((id) => !deploymentChecks.some((c) => c.id === id))).toEqual([]);
    expect(new Set(named).size).toBeGreaterThan(1);
    // Cleared before anything else prints: the last call blanks it.
    expect(progress.at(-1)).toBe("");
    expect(out.filter((l) => l.startsWith("PASS"))).toEqual([]);
  });

  it("`help` lists the commands; a mistyped command gets a suggestion, not 'too many arguments'", async () => {
    const help = await cli("help");
    expect(help.code).toBe(0);
    for (const c of ["list", "coverage", "baseline", "compare", "replay", "reference"]) expect(help.out).toMatch(new RegExp(`^  ${c}\\b`, "m"));
    const typo = await cli("lst");
    expect(typo.code).toBe(2);
    expect(typo.err.trim().split("\n")).toHaveLength(1);
    expect(typo.err).toMatch(/unknown command 'lst' \(did you mean list\?\); commands: list, /);
    expect(typo.err).not.toMatch(/too many arguments/);
    expect((await cli("comapre", "a", "b")).err).toMatch(/did you mean compare\?/);
  });

  it("list keeps its columns aligned, long rule citations included", () => {
    const lines = catalogueLines(catalogue);
    const titleColumn = lines[0].indexOf(catalogue[0].title);
    let i = 0;
    for (const c of catalogue) {
      const line = lines[i++];
      expect(line.startsWith(c.id)).toBe(true);
      expect(line.indexOf(c.level, c.id.length)).toBe(lines[0].indexOf(catalogue[0].level, catalogue[0].id.length));
      const titleLine = line.endsWith(c.title) ? line : lines[i++];
      expect(titleLine.length - c.title.length, c.id).toBe(titleColumn);
    }
    expect(i).toBe(lines.length);
  });
});

describe("GitHub Actions", () => {
  it("escapes workflow command data and properties as the runner reads them", () => {
    expect(escapeData("50% done\r\nnext")).toBe("50%25 done%0D%0Anext");
    expect(escapeProperty("E11 rule 1: a, b")).toBe("E11 rule 1%3A a%2C b");
  });

  it("annotates failures as errors and SHOULD findings as warnings, and appends a step summary", async () => {
    const run = await faultyRun(["json"]);
    const report = run.report();
    const lines = annotations(report, { strict: false });
    const errors = lines.filter((l) => l.startsWith("::error "));
    expect(errors).toHaveLength(1);
    expect(errors[0].startsWith("::error title=pagination.cursor.any-page-size [MUST Pagination styles 2; E2%2C E8%2C E13] failed::hasNextPage")).toBe(true);
    expect(errors[0]).toContain("%0Aexpected: a string endCursor%0Agot: null%0Areproduce: curl ");
    // One warning a SHOULD finding (minimums-not-enforced gives three: limit=0, offset=-1, first=0).
    const findings = report.results.filter((r) => r.status === "failed" && r.level === "SHOULD");
    expect(findings.length).toBeGreaterThanOrEqual(3);
    expect(lines.filter((l) => l.startsWith("::warning "))).toHaveLength(findings.length);
    for (const l of lines) expect(l).not.toMatch(/[\r\n]/);
    const summaryFile = join(run.dir, "summary.md");
    const printed: string[] = [];
    publishToGitHub(report, { strict: false }, ["reports/report.json"], (l) => printed.push(l), { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summaryFile });
    expect(printed).toEqual(lines);
    const summary = readFileSync(summaryFile, "utf8");
    expect(summary).toContain(`| ${report.summary.total} | ${report.summary.passed} | ${report.summary.failed} |`);
    expect(summary).toContain("`pagination.cursor.any-page-size`");
    // The failure whole comes first (rule, expected and got, the curl line), the counts after it, the skips folded last.
    expect(summary.indexOf("### Failures: 1")).toBeLessThan(summary.indexOf("| total |"));
    expect(summary).toContain("- expected: a string endCursor\n- got: null\n\n```\ncurl ");
    expect(summary.indexOf("### SHOULD findings")).toBeGreaterThan(summary.indexOf("### Failures"));
    expect(summary.indexOf("<details><summary>Skipped: ")).toBeGreaterThan(summary.indexOf("### SHOULD findings"));
    const quiet: string[] = [];
    publishToGitHub(report, { strict: false }, [], (l) => quiet.push(l), {});
    expect(quiet).toEqual([]);
  });

  it("emits at most 10 annotations, most important first (MUST failures, root causes with what they block, then findings and KNOWN ones), then how many more", () => {
    const result = (id: string, level: "MUST" | "SHOULD", status: CheckResult["status"], extra: Partial<CheckResult> = {}): CheckResult => ({
      id,
      group: "g",
      title: id,
      spec: "E1",
      level,
      kind: "example",
      status,
      message: `${id} broke`,
      durationMs: 1,
      ...extra,
    });
    const results = [
      ...Array.from({ length: 3 }, (_, i) => result(`should.finding-${i}`, "SHOULD", "failed")),
      result("known.one", "MUST", "failed"),
      ...Array.from({ length: 4 }, (_, i) =>
        result(`blocked.${i}`, "MUST", "blocked", { root: { check: "root.owner" }, blockedBy: "root.owner: GET /x answered 500" }),
      ),
      ...Array.from({ length: 8 }, (_, i) => result(`must.failure-${i}`, "MUST", "failed")),
      result("root.owner", "MUST", "failed"),
    ];
    const report = { results, rootCauses: rootCauses(results) } as unknown as Report;
    const gate = { strict: false, baseline: { knownFailures: [{ id: "known.one", reason: "until the fix ships" }] } };
    const lines = annotations(report, gate);
    expect(lines).toHaveLength(11);
    // The root check's own failure carries what it blocks; the blocked ones have no line of their own.
    expect(lines[0]).toMatch(/^::error title=must.failure-0 /);
    const root = lines.find((l) => l.startsWith("::error title=root.owner [MUST E1] failed%2C blocks 4::"))!;
    expect(root).toContain("root cause: blocks 4: blocked.0, blocked.1, blocked.2, blocked.3");
    expect(lines.slice(0, 9).every((l) => l.startsWith("::error "))).toBe(true);
    expect(lines[9]).toMatch(/^::warning title=should.finding-0 \[SHOULD E1\] SHOULD finding::/);
    expect(lines[10]).toBe("::notice title=3 more::3 more failure(s), root cause(s) and finding(s) are in the report (step summary, junit.xml, report.html)");
    expect(lines.some((l) => l.includes("title=blocked."))).toBe(false);
    // Under the cap everything shows, KNOWN ones with the user's reason, last.
    const few = annotations({ results: results.slice(0, 8), rootCauses: rootCauses(results.slice(0, 8)) } as unknown as Report, gate);
    expect(few.at(-1)).toMatch(/^::warning title=known.one \[MUST E1\] KNOWN \(baseline%3A until the fix ships\)/);
    // Without its root check in the report, the root cause has a line of its own, first.
    expect(few[0]).toMatch(
      /^::error title=root cause%3A 4 checks blocked by root.owner::blocked by root.owner: GET \/x answered 500%0Ablocks: blocked.0, blocked.1/,
    );
  });
});
