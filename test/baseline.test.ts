import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { caughtBy, faultNamed } from "../reference/faults.js";
import { cli } from "./report-run.js";

const dir = mkdtempSync(join(tmpdir(), "conformance-baseline-"));
const known = "deployments-total-off-by-one";
const another = "deployments-limit-ignored";
const run = (name: string, faultNames: string[], ...extra: string[]) =>
  cli(
    "--reference",
    ...(faultNames.length ? ["--fault", ...faultNames] : []),
    "--check",
    "deployments.*",
    "--reporter",
    "json",
    "--out",
    join(dir, name),
    ...extra,
  );
const reportOf = (name: string) => join(dir, name, "report.json");

describe("--baseline: a gate for a server still being built", () => {
  it("a faulty reference with the baseline of its failures exits 0; one more fault exits 1 naming it; fixing one reports it fixed", async () => {
    const first = await run("first", [known]);
    expect(first.code).toBe(1);

    const written = await cli("baseline", reportOf("first"));
    expect(written.code).toBe(0);
    const baseline = JSON.parse(written.out);
    expect(baseline.knownFailures.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining(caughtBy(faultNamed(known))));
    for (const e of baseline.knownFailures) expect(e.reason.length).toBeGreaterThan(10);
    const file = join(dir, "baseline.json");
    writeFileSync(file, written.out);

    const accepted = await run("accepted", [known], "--baseline", file);
    expect(accepted.code, accepted.out).toBe(0);
    expect(accepted.out).toMatch(/baseline: \d+ known failure\(s\) accepted, 0 new, 0 fixed/);

    const worse = await run("worse", [known, another], "--baseline", file);
    expect(worse.code).toBe(1);
    const newIds = caughtBy(faultNamed(another)).filter((id) => !baseline.knownFailures.some((e: { id: string }) => e.id === id));
    expect(newIds.length).toBeGreaterThan(0);
    for (const id of newIds) expect(worse.out).toContain(`new failure: ${id}`);
    expect(JSON.parse(readFileSync(reportOf("worse"), "utf8")).gate.baseline.new).toEqual(expect.arrayContaining(newIds));

    const typo = join(dir, "typo.json");
    writeFileSync(typo, JSON.stringify({ knownFailures: [...baseline.knownFailures, { id: "deployments.list.totl-consistent", reason: "a typo" }] }));
    expect((await run("typo", [known], "--baseline", typo)).out).toContain(
      "baseline: 1 entry names no check of this run (not selected, removed or mistyped): deployments.list.totl-consistent",
    );

    const fixed = await run("fixed", [], "--baseline", file);
    expect(fixed.code).toBe(0);
    for (const id of caughtBy(faultNamed(known))) expect(fixed.out).toContain(`fixed: ${id} passes now`);
    // "Baselines only shrink" is its own option: --fail-on-fixed fails on a fixed entry; --strict (SHOULD findings) does not.
    expect((await run("fixed-strict", [], "--baseline", file, "--strict")).code).toBe(0);
    const shrink = await run("fixed-shrink", [], "--baseline", file, "--fail-on-fixed");
    expect(shrink.code).toBe(1);
    expect(shrink.out).toMatch(/fails the run under --fail-on-fixed/);
  });

  it("shows the user's reason wherever a known failure is, labelled KNOWN; baseline update keeps reasons, prunes fixed entries, adds new ones to edit", async () => {
    const file = join(dir, "reasons.json");
    const ids: string[] = caughtBy(faultNamed(known));
    writeFileSync(file, JSON.stringify({ knownFailures: ids.map((id) => ({ id, reason: "off by one until ticket 7" })) }));
    const r = await run("reasons", [known, another], "--baseline", file, "--reporter", "console", "json", "junit", "html", "ctrf");
    const failedKnown = ids.filter((id) => r.out.includes(`── ${id}`));
    expect(failedKnown.length).toBeGreaterThan(0);
    for (const id of failedKnown) expect(r.out).toContain(`── ${id} KNOWN (baseline: off by one until ticket 7)`);
    const read = (f: string) => readFileSync(join(dir, "reasons", f), "utf8");
    expect(read("junit.xml")).toContain(`message="KNOWN (baseline: off by one until ticket 7)`);
    expect(read("report.html")).toContain("KNOWN (baseline: off by one until ticket 7)");
    const ctrf = JSON.parse(read("ctrf-report.json"));
    expect(ctrf.results.tests.find((t: any) => t.labels.check === failedKnown[0]).extra.baseline).toEqual({ known: true, reason: "off by one until ticket 7" });

    // The second fault fixed, the first still there, one entry that names no check of this run.
    writeFileSync(
      file,
      JSON.stringify({
        knownFailures: [
          ...ids.map((id) => ({ id, reason: "off by one until ticket 7" })),
          { id: "audit.export.content-type-csv", reason: "not selected here" },
        ],
      }),
    );
    await run("update-from", [another]);
    const failing = (JSON.parse(readFileSync(reportOf("update-from"), "utf8")).results as { id: string; status: string }[])
      .filter((x) => x.status === "failed")
      .map((x) => x.id);
    const updated = await cli("baseline", "update", file, reportOf("update-from"));
    expect(updated.code).toBe(0);
    const after = JSON.parse(readFileSync(file, "utf8")).knownFailures as { id: string; reason: string }[];
    for (const e of after.filter((e) => ids.includes(e.id))) expect(failing).toContain(e.id);
    expect(after.filter((e) => ids.includes(e.id)).length).toBeLessThan(ids.length);
    expect(after.find((e) => e.id === "audit.export.content-type-csv")?.reason).toBe("not selected here");
    const added = after.filter((e) => !ids.includes(e.id) && e.id !== "audit.export.content-type-csv");
    expect(added.length).toBeGreaterThan(0);
    for (const e of added) expect(e.reason).toMatch(/^TODO: say why this failure is accepted/);
    expect(updated.out).toMatch(/removed \(passes now\)/);
    expect((await run("after-update", [another], "--baseline", file)).code).toBe(0);
  });

  it("a baseline entry without a reason, or a file that is not a baseline: one clear line, exit 2", async () => {
    const noReason = join(dir, "no-reason.json");
    writeFileSync(noReason, JSON.stringify({ knownFailures: [{ id: "deployments.list.schema" }] }));
    const r = await run("bad", [], "--baseline", noReason);
    expect(r.code).toBe(2);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(/knownFailures\[0\] \(deployments.list.schema\) has no reason/);
    const notJson = join(dir, "not.json");
    writeFileSync(notJson, "[1,2");
    expect((await run("bad2", [], "--baseline", notJson)).code).toBe(2);
    expect((await run("bad3", [], "--baseline", join(dir, "missing.json"))).code).toBe(2);
  });
});

describe("conformance compare", () => {
  it("names regressions (exit 1), fixes (exit 0), and new and removed checks", async () => {
    await run("before", [known]);
    await run("after", [another]);
    const r = await cli("compare", reportOf("before"), reportOf("after"));
    expect(r.code).toBe(1);
    const regressed = caughtBy(faultNamed(another)).filter((id) => !caughtBy(faultNamed(known)).includes(id));
    for (const id of regressed) expect(r.out).toMatch(new RegExp(`regressions \\(\\d+\\):[\\s\\S]*${id.replace(/\./g, "\\.")}`));
    for (const id of caughtBy(faultNamed(known)).filter((id) => !caughtBy(faultNamed(another)).includes(id)))
      expect(r.out).toMatch(new RegExp(`fixes[\\s\\S]*${id.replace(/\./g, "\\.")} \\(MUST\\): passes now`));

    const back = await cli("compare", reportOf("after"), reportOf("first"), "--json");
    const comparison = JSON.parse(back.out);
    expect(comparison.fixes.map((x: { new: { id: string } }) => x.new.id)).toEqual(expect.arrayContaining(regressed));

    // A report of fewer checks: the rest are removed, not regressed.
    const subset = JSON.parse(readFileSync(reportOf("before"), "utf8"));
    const dropped = subset.results.pop();
    writeFileSync(join(dir, "subset.json"), JSON.stringify(subset));
    const c = await cli("compare", reportOf("before"), join(dir, "subset.json"), "--json");
    expect(c.code).toBe(0);
    expect(JSON.parse(c.out).removed.map((x: { id: string }) => x.id)).toEqual([dropped.id]);
    const reversed = await cli("compare", join(dir, "subset.json"), reportOf("before"), "--json");
    expect(JSON.parse(reversed.out).added.map((x: { id: string }) => x.id)).toEqual([dropped.id]);
  });

  it("a file that is not a report: one line, exit 2", async () => {
    writeFileSync(join(dir, "junk.json"), "{}");
    const r = await cli("compare", join(dir, "junk.json"), reportOf("before"));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/not a conformance report/);
  });
});
