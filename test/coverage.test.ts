import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { citedRules, coverage, coverageMarkdown } from "../core/served/coverage.js";
import { packageRoot } from "../core/api/paths.js";
import { RULES_WITH_RANGES } from "../core/api/rule-ranges.js";
import { rangesByGroup, ruleRanges } from "../suites/ranges.js";
import { specRules } from "../core/api/spec-rules.js";
import { catalogue } from "../suites/index.js";
import { cli } from "./report-run.js";

describe("coverage of the spec", () => {
  it("docs/coverage.md is current (npm run catalogue rewrites it)", () => {
    expect(readFileSync(join(packageRoot, "docs", "coverage.md"), "utf8")).toBe(coverageMarkdown(catalogue, ruleRanges));
  });

  it("every check cites at least one rule, and only rules of the rules list", () => {
    const known = new Set(specRules.map((r) => r.id));
    const unknown = catalogue.flatMap((c) =>
      citedRules(c.spec)
        .filter((id) => !known.has(id))
        .map((id) => `${c.id}: ${id} (from "${c.spec}")`),
    );
    expect(unknown).toEqual([]);
    expect(catalogue.filter((c) => citedRules(c.spec).length === 0).map((c) => c.id)).toEqual([]);
  });

  it("a MUST check stands on at least one testable rule (no MUST where the spec says not shown)", () => {
    const testable = new Set(specRules.filter((r) => !r.notTestable).map((r) => r.id));
    expect(catalogue.filter((c) => c.level === "MUST" && !citedRules(c.spec).some((id) => testable.has(id))).map((c) => `${c.id} [${c.spec}]`)).toEqual([]);
  });

  it("the applicability table: every cell of a stated rule has a check, every check named is in the catalogue", () => {
    const testable = new Set(specRules.filter((r) => !r.notTestable).map((r) => r.id));
    const ids = new Set(catalogue.map((c) => c.id));
    expect(ruleRanges.map((r) => r.rule).filter((id) => !testable.has(id))).toEqual([]);
    expect(ruleRanges.flatMap((r) => r.cells.filter((c) => c.checks.length === 0).map((c) => `${r.rule}: ${c.where}`))).toEqual([]);
    expect(ruleRanges.flatMap((r) => r.cells.flatMap((c) => c.checks.filter((id) => !ids.has(id)).map((id) => `${r.rule} / ${c.where}: ${id}`)))).toEqual([]);
  });

  it("a cell sits in the folder of the group whose checks cover it, and every ranged rule has cells", () => {
    const groupOf = new Map(catalogue.map((c) => [c.id, c.group]));
    const elsewhere = Object.entries(rangesByGroup).flatMap(([group, byRule]) =>
      Object.values(byRule).flatMap((cells) => cells.flatMap((c) => c.checks.filter((id) => groupOf.get(id) !== group).map((id) => `${group}: ${id}`))),
    );
    expect(elsewhere).toEqual([]);
    expect(ruleRanges.length).toBe(RULES_WITH_RANGES.length);
    expect(ruleRanges.filter((r) => r.cells.length === 0).map((r) => `${r.rule}: ${r.says}`)).toEqual([]);
  });

  it("rule ids are unique, and every not-testable rule says why", () => {
    expect(new Set(specRules.map((r) => r.id)).size).toBe(specRules.length);
    for (const r of specRules.filter((x) => x.notTestable !== undefined)) expect(r.notTestable!.length, r.id).toBeGreaterThan(10);
  });

  it("reads the citation forms of the catalogue", () => {
    expect(citedRules("E11 rules 1 and 2")).toEqual(["E11 rule 1", "E11 rule 2"]);
    expect(citedRules("E8; E9; E10 rules 1, 4; E11 rule 2; E12; States")).toEqual([
      "E10 rule 1",
      "E10 rule 4",
      "E11 rule 2",
      "E8",
      "E9",
      "E12",
      "States / Branch staging",
      "States / Bulk move",
      "States / Clone",
    ]);
    expect(citedRules("Versioning 1; E1–E3")).toEqual(["E1", "E2", "E3", "Versioning 1"]);
    expect(citedRules("Errors 6 (status not shown; published docs: 401)")).toEqual(["Errors 6"]);
    expect(citedRules("Resources / Workbook, Dashboard (enums)")).toEqual(["Resources / Workbook", "Resources / Dashboard"]);
    expect(citedRules("States and transitions (clone: source unchanged)")).toEqual(["States / Clone"]);
    expect(citedRules("E15 rule 9")).toEqual(["E15 rule 9"]);
  });

  it("maps E11 rule 1 to the checks that cite it", () => {
    const row = coverage(catalogue).find((r) => r.rule.id === "E11 rule 1")!;
    expect(row.checks.map((c) => c.id)).toEqual(catalogue.filter((c) => /E11 rules? 1\b/.test(c.spec)).map((c) => c.id));
    expect(row.checks.length).toBeGreaterThan(0);
  });

  it("conformance coverage prints the same as docs/coverage.md", async () => {
    const r = await cli("coverage");
    expect(r.code).toBe(0);
    expect(r.out + "\n").toBe(coverageMarkdown(catalogue, ruleRanges));
  });
});
