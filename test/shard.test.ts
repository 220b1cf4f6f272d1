import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../bin/cli.js";
import type { Report } from "../core/reporters/report.js";
import { conflictTable } from "../core/schedule.js";
import { isInvariant } from "../core/invariants.js";
import { shardOf } from "../core/shard.js";
import { catalogue } from "../suites/index.js";

const dir = mkdtempSync(join(tmpdir(), "conformance-shard-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = async (...argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), errLines: err.filter(Boolean) };
};
const reportAt = (d: string) => JSON.parse(readFileSync(join(d, "report.json"), "utf8")) as Report;

describe("--shard i/n", () => {
  it("splits the catalogue into disjoint parts that cover it, in catalogue order, the same on every call; every part has the invariants", () => {
    const invariants = catalogue.filter(isInvariant);
    expect(invariants.length).toBeGreaterThan(0);
    for (const n of [1, 2, 3, 4, 7]) {
      const parts = Array.from({ length: n }, (_, i) => shardOf(catalogue, i + 1, n));
      expect(parts.flat().filter((c) => !isInvariant(c)).map((c) => c.id).sort()).toEqual(catalogue.filter((c) => !isInvariant(c)).map((c) => c.id).sort());
      for (const part of parts) expect(invariants.filter((c) => !part.includes(c)).map((c) => c.id)).toEqual([]);
      for (const [i, part] of parts.entries()) {
        expect(part.map((c) => c.id)).toEqual(catalogue.filter((c) => part.includes(c)).map((c) => c.id));
        expect(shardOf(catalogue, i + 1, n).map((c) => c.id)).toEqual(part.map((c) => c.id));
      }
      if (n > 1) expect(parts.filter((p) => p.length > 0).length).toBe(n);
    }
  });

  it("keeps checks that change what another reads or changes in one part", () => {
    const table = conflictTable(catalogue, true);
    const parts = Array.from({ length: 4 }, (_, i) => new Set(shardOf(catalogue, i + 1, 4).map((c) => c.id)));
    const partOf = (id: string) => parts.findIndex((p) => p.has(id));
    const split = table.flatMap((others, i) => [...others].filter((j) => partOf(catalogue[i].id) !== partOf(catalogue[j].id)).map((j) => `${catalogue[i].id} / ${catalogue[j].id}`));
    expect(split).toEqual([]);
    // The staging toggles and the environment reads share a thing: one part holds them all.
    expect(new Set(catalogue.filter((c) => c.group === "staging" || c.group === "environments").map((c) => partOf(c.id))).size).toBe(1);
  });
});

describe("bad values of the new options: one clear line, exit 2", () => {
  for (const [argv, said] of [
    [["--shard", "3/2"], /--shard must be i\/n/],
    [["--shard", "two"], /--shard must be i\/n/],
    [["--concurrency", "0"], /--concurrency must be an integer >= 1/],
    [["--max-pages", "-1"], /--max-pages must be an integer >= 1/],
    [["--repeat", "x"], /--repeat must be an integer >= 1/],
    [["reference", "--latency", "-5"], /--latency must be an integer >= 0/],
  ] as [string[], RegExp][]) {
    it(argv.join(" "), async () => {
      const r = await run(...argv);
      expect(r.code).toBe(2);
      expect(r.errLines).toHaveLength(1);
      expect(r.errLines[0]).toMatch(said);
    });
  }
});

describe("conformance merge", () => {
  const common = ["--reference", "--allow-writes", "--group", "deployments", "workbooks", "staging", "upsert", "--seed", "11", "--runs", "5", "--reporter", "json"];

  it("joins the shards' reports into the report of the whole run, and writes JUnit", { timeout: 120_000 }, async () => {
    const shards = [1, 2, 3].map((i) => join(dir, `shard-${i}`));
    for (const [i, out] of shards.entries()) expect((await run(...common, "--shard", `${i + 1}/3`, "--out", out)).code).toBe(0);
    const whole = join(dir, "whole");
    expect((await run(...common, "--out", whole)).code).toBe(0);

    const merged = join(dir, "merged");
    const r = await run("merge", ...shards.map((d) => join(d, "report.json")), "--out", merged, "--reporter", "json", "junit");
    expect(r.code, r.errLines.join("\n")).toBe(0);
    expect(r.out).toMatch(/3 reports merged/);
    const joined = reportAt(merged);
    const single = reportAt(whole);
    expect(joined.results.map((x) => [x.id, x.status])).toEqual(single.results.map((x) => [x.id, x.status]));
    expect({ ...joined.summary, requests: 0 }).toEqual({ ...single.summary, requests: 0 });
    expect(joined.summary.requests).toBe(shards.map((d) => reportAt(d).summary.requests).reduce((a, b) => a + b));
    expect(joined.seed).toBe(11);
    const xml = readFileSync(join(merged, "junit.xml"), "utf8");
    expect((xml.match(/<testcase /g) ?? []).length).toBe(joined.summary.total);
  });

  it("refuses, in one line with exit 2, reports of different seeds and overlapping shards", { timeout: 60_000 }, async () => {
    const a = join(dir, "seed-a");
    const b = join(dir, "seed-b");
    await run("--reference", "--check", "deployments.list.schema", "--seed", "1", "--reporter", "json", "--out", a);
    await run("--reference", "--check", "deployments.list.schema", "--seed", "2", "--reporter", "json", "--out", b);
    const seeds = await run("merge", join(a, "report.json"), join(b, "report.json"), "--out", join(dir, "x"));
    expect(seeds.code).toBe(2);
    expect(seeds.errLines).toHaveLength(1);
    expect(seeds.errLines[0]).toMatch(/same --seed/);
    const twice = await run("merge", join(a, "report.json"), join(a, "report.json"), "--out", join(dir, "y"));
    expect(twice.code).toBe(2);
    expect(twice.errLines[0]).toMatch(/deployments.list.schema is in both .* the shards overlap/);
    const missing = await run("merge", join(dir, "nope.json"));
    expect(missing.code).toBe(2);
    expect(missing.errLines[0]).toMatch(/cannot read report/);
  });
});
