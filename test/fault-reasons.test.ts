import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../core/api/paths.js";
import type { CheckResult } from "../core/run/result.js";
import { FAULTS_BY_GROUP, faults, type Fault } from "../reference/faults.js";
import { catalogue } from "../suites/index.js";
import { reasonOf, reasons, reasonTables } from "../suites/reasons.js";
import { notAProof } from "./fault-proof.js";

/**
 * Fault proofs compare typed reasons (core/model/outcome.ts CheckFailure.reason), never text: a check
 * that fails another of its assertions, or none (its assertion deleted), proves nothing. The keys
 * are the registry's (suites/reasons.ts: core's and each group's folder's): the type of every assertion's `reason` is its key set, and
 * a fault names only keys it holds.
 */
const check = (id: string) => catalogue.find((c) => c.id === id)!;
const failed = (id: string, reason: CheckResult["reason"]): CheckResult =>
  ({ ...check(id), status: "failed", message: "m", durationMs: 0, reason }) as CheckResult;
const fault = (because: Fault["because"] = {}): Fault => ({ name: "f", breaks: "E9; E10; Errors 2", description: "d", because });

describe("a fault lives beside its group", () => {
  it("each file of reference/faults/ holds the faults of one group of checks, each catching a check of it", () => {
    const groupOf = new Map(catalogue.map((c) => [c.id, c.group]));
    const elsewhere = Object.entries(FAULTS_BY_GROUP).flatMap(([group, list]) =>
      list.filter((f) => !Object.keys(f.because).some((id) => groupOf.get(id) === group)).map((f) => `${f.name} in ${group}`),
    );
    expect(elsewhere).toEqual([]);
    const files = readdirSync(join(packageRoot, "reference/faults")).filter((f) => f.endsWith(".ts"));
    expect(files.sort()).toEqual([...Object.keys(FAULTS_BY_GROUP).map((g) => `${g}.ts`), "missing-endpoints.ts"].sort());
  });
});

describe("a fault's proof is its typed reason", () => {
  it("the declared reason proves; another reason, or none, does not", () => {
    const f = fault({ "clone.name.copy-of": "name" });
    expect(notAProof(f, failed("clone.name.copy-of", "name"))).toBeUndefined();
    expect(notAProof(f, failed("clone.name.copy-of", "status"))).toMatch(/failed for reason status, not name/);
    expect(notAProof(f, failed("clone.name.copy-of", undefined))).toMatch(/failed for reason \(none\), not name/);
  });

  it("a check the fault names no reason for proves nothing, a 'no 5xx' check neither", () => {
    expect(notAProof(fault(), failed("clone.name.copy-of", "name"))).toMatch(/declares no reason key/);
    expect(notAProof(fault(), failed("errors.no-5xx.valid-reads", "server-error"))).toMatch(/declares no reason key/);
  });

  it("every reason key a fault declares is one the registry holds", () => {
    const unknown = faults.flatMap((f) =>
      Object.entries(f.because)
        .filter(([, key]) => !reasonOf(key))
        .map(([id, key]) => `${f.name}: ${id} because ${key}`),
    );
    expect(unknown).toEqual([]);
  });

  it("every key of the registry is named by an assertion of the suite, with a title and what was expected", () => {
    const root = join(import.meta.dirname, "..");
    const files = ["suites", "core"].flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".ts") && f !== "reasons.ts")
        .map((f) => join(root, dir, f)),
    );
    const source = files.map((f) => readFileSync(f, "utf8")).join("\n");
    const unused = Object.keys(reasons).filter((key) => !source.includes(`"${key}"`));
    expect(unused).toEqual([]);
    for (const [key, r] of Object.entries(reasons)) expect([key, r.title.length > 5, r.expected.length > 0]).toEqual([key, true, true]);
  });

  it("each key has one home: core's table, one group's, or one check's", () => {
    const homes = new Map<string, string[]>();
    for (const [table, keys] of Object.entries(reasonTables)) for (const key of Object.keys(keys)) homes.set(key, [...(homes.get(key) ?? []), table]);
    for (const c of catalogue) for (const key of Object.keys(c.reasons ?? {})) homes.set(key, [...(homes.get(key) ?? []), c.id]);
    expect([...homes].filter(([, where]) => where.length > 2 || (where.length === 2 && where[0] !== "checks"))).toEqual([]);
  });

  it("'no 5xx' is a kind of reason, not a pattern over a title", () => {
    expect(reasonOf("server-error")?.kind).toBe("no-5xx");
    expect(reasonOf("status")?.kind).toBeUndefined();
    expect([reasonOf("schema:Workbook")?.expected, reasonOf("walk:repeated-cursor")?.title.length, reasonOf("walk:made-up")]).toEqual([
      "a valid Workbook",
      expect.any(Number),
      undefined,
    ]);
  });
});
