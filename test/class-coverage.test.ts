import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { type ClassCoverage, covered } from "../core/run/class-tally.js";
import { isInvariant } from "../core/run/invariants.js";
import { ruleRanges } from "../suites/ranges.js";
import { INPUT_CLASSES_RUN, inputClassesDocument } from "../scripts/input-classes.js";
import { catalogue } from "../suites/index.js";
import { describeResults, runAgainstReference } from "./reference-run.js";

/** The group table of the class-coverage document: the lines that carry its figures. */
const groupLines = (doc: string) => doc.split("\n").filter((l) => /^(Input classes judged|\| E\d+ \| \d)/.test(l));

/**
 * Issue 29, section 4: measured, not declared. One run of the whole catalogue against the clean
 * reference, every opt-in, as `npm run input-classes` makes it; what it judged is read from its own
 * tally (core/run/class-tally.ts), never from a list kept by hand.
 */
describe("what a full reference run judged", () => {
  let classes: ClassCoverage;
  let verdicts: Set<string>;
  beforeAll(async () => {
    const outcome = await runAgainstReference(catalogue, { settings: INPUT_CLASSES_RUN });
    expect(describeResults(outcome)).toBe("");
    classes = outcome.inputClasses!;
    verdicts = new Set(outcome.results.filter((r) => r.status === "passed" || r.status === "failed").map((r) => r.id));
  });

  it("judges every class of every input of E1-E14, or the spec rules it out, or the table says why it is not exercised yet", () => {
    const gaps = classes.inputs.flatMap((i) => i.classes.filter((k) => !covered(k)).map((k) => ({ at: `${i.section} ${i.input}: ${k.name}`, k })));
    // A new input or class is never silently uncovered: a gap is named in core/api/input-domain.ts with its reason.
    expect(gaps.filter((g) => !g.k.notExercised).map((g) => g.at)).toEqual([]);
    // And a named gap the run now covers is a stale excuse: the list only shrinks.
    const stale = classes.inputs.flatMap((i) => i.classes.filter((k) => k.notExercised && covered(k)).map((k) => `${i.section} ${i.input}: ${k.name}`));
    expect(stale).toEqual([]);
  });

  it("docs/input-classes.md shows the figures this run measured (npm run input-classes writes it)", () => {
    const doc = readFileSync(new URL("../docs/input-classes.md", import.meta.url), "utf8");
    expect(groupLines(doc)).toEqual(groupLines(inputClassesDocument(classes)));
  });

  it("every cell of core/api/rule-ranges.ts is judged by the run: its checks reach a verdict, the sections it names, and a later page where it says every page", () => {
    const invariants = new Set(catalogue.filter(isInvariant).map((c) => c.id));
    // An invariant sends nothing: it judges every answer of the run, so it reaches whatever the run reached.
    const everything = [...new Set(Object.values(classes.reached).flat())];
    const reachedBy = (id: string) => (invariants.has(id) ? everything : (classes.reached[id] ?? []));
    const unjudged: string[] = [];
    for (const range of ruleRanges)
      for (const cell of range.cells) {
        const at = `${range.rule} / ${cell.where}`;
        for (const id of cell.checks) if (!verdicts.has(id)) unjudged.push(`${at}: ${id} reached no verdict`);
        const named = [...cell.where.matchAll(/\bE\d+\b/g)].map((m) => m[0]);
        const sections = named.length ? named : /^E\d+$/.test(range.rule.split(" ")[0]) ? [range.rule.split(" ")[0]] : [];
        const reached = new Set(cell.checks.flatMap(reachedBy));
        for (const s of sections) {
          if (!reached.has(s)) unjudged.push(`${at}: no check of the cell sent a request of ${s}`);
          if (/every page/.test(cell.where) && !reached.has(`${s} page>1`)) unjudged.push(`${at}: no check of the cell read a later page of ${s}`);
        }
      }
    expect(unjudged).toEqual([]);
  });
});
