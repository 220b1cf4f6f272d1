import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { Schemas, type SchemaName } from "../core/schemas.js";
import { invalidCandidates, invalidValues, malformedJson, validValues } from "../generators/schema.js";

const REQUESTS: SchemaName[] = ["MetadataTokenRequest", "StagingToggleRequest", "UpdateDeploymentRequest", "CloneWorkbookRequest", "UpsertWorkbookRequest", "BulkMoveRequest", "EnvVarsPutRequest"];
const RESOURCES: SchemaName[] = ["Workbook", "Dashboard", "DashboardConfig", "DashboardAppSource", "DashboardWidget", "ReportSnapshot", "Environment", "EnvironmentVariable", "DeploymentVersion", "PageInfo", "ErrorBody", "BulkMoveFailure", "WorkbooksListResponse"];
const SAMPLES = 200;

let schemas: Schemas;
beforeAll(async () => {
  schemas = await Schemas.load();
});

const sample = <T>(arb: fc.Arbitrary<T>, seed = 7) => fc.sample(arb, { numRuns: SAMPLES, seed });
/** Schemas without anyOf/oneOf, where every mutation must break the schema by construction. */
const hasUnion = (s: unknown): boolean => JSON.stringify(s).includes('"anyOf"') || JSON.stringify(s).includes('"oneOf"');

describe("validValues: every value satisfies its schema", () => {
  for (const name of [...REQUESTS, ...RESOURCES])
    it(name, () => {
      const bad = sample(validValues(schemas.schema(name))).map((v) => ({ v, errors: schemas.validateStrict(name, v) })).filter((x) => x.errors.length);
      expect(bad.slice(0, 3)).toEqual([]);
    });

  it("survives a JSON round trip unchanged (what goes over the wire is what was generated)", () => {
    for (const name of REQUESTS) for (const v of sample(validValues(schemas.schema(name)))) expect(JSON.parse(JSON.stringify(v))).toEqual(v);
  });

  it("overrides pin domain values by JSON pointer, array elements included", () => {
    const ids = [101, 102];
    const values = sample(validValues(schemas.schema("BulkMoveRequest"), { overrides: { "/items/*/id": fc.constantFrom(...ids), "/folderId": fc.constant(null) } }));
    for (const v of values as any[]) {
      expect(v.folderId).toBeNull();
      for (const item of v.items) expect(ids).toContain(item.id);
    }
  });
});

describe("invalidValues: every value breaks its schema", () => {
  for (const name of [...REQUESTS, ...RESOURCES])
    it(name, () => {
      const passed = sample(invalidValues(schemas.schema(name))).filter((c) => schemas.validateStrict(name, c.value).length === 0);
      expect(passed.slice(0, 3)).toEqual([]);
    });

  it("breaks schemas without unions by construction, not by filtering", () => {
    for (const name of [...REQUESTS, ...RESOURCES].filter((n) => !hasUnion(schemas.schema(n)))) {
      const passed = sample(invalidCandidates(schemas.schema(name))).filter((c) => schemas.validateStrict(name, c.value).length === 0);
      expect(passed.slice(0, 3), name).toEqual([]);
    }
  });

  it("covers the kinds the contract's rules allow, at the places they apply", () => {
    const seen = (name: SchemaName, seed = 1) => new Set(fc.sample(invalidValues(schemas.schema(name)), { numRuns: 600, seed }).map((c) => `${c.kind} ${c.at}`));
    const token = seen("MetadataTokenRequest");
    expect([...token]).toEqual(expect.arrayContaining(["wrong-type ", "missing-required /security_context", "wrong-type /security_context", "wrong-type /expires_in", "out-of-range /expires_in"]));
    expect([...seen("DashboardAppSource")]).toContain("too-long /entry");
    const envVars = [...seen("EnvVarsPutRequest")];
    expect(envVars.some((k) => /^pattern \/env_variables\/\d+\/name$/.test(k))).toBe(true);
    expect(envVars.some((k) => /^forbidden-value \/env_variables\/\d+\/value$/.test(k))).toBe(true);
    expect([...seen("StagingToggleRequest")]).toEqual(expect.arrayContaining(["several-branches ", "missing-required /enabled", "wrong-type /branchId"]));
    expect([...seen("BulkMoveRequest")]).toEqual(expect.arrayContaining(["too-many-items /items", "wrong-type /folderId", "missing-required /items"]));
    expect([...seen("WorkspaceItemRef")]).toContain("unknown-enum /type");
  });

  it("sends the look-alike of the number it replaces, the coercion a lenient server would accept", () => {
    const base = fc.constant({ items: [{ type: "WORKBOOK", id: 7001 }], folderId: 42 });
    const cases = fc.sample(invalidValues(schemas.schema("BulkMoveRequest"), { base }), { numRuns: 2000, seed: 3 });
    const sent = (at: string) => cases.filter((c) => c.kind === "wrong-type" && c.at === at).map((c) => at.split("/").slice(1).reduce((v: any, k) => v?.[k], c.value));
    expect(sent("/folderId")).toContain("42");
    expect(sent("/items/0/id")).toContain("7001");
    // Never some other id, that on a real server might name an object the run does not own.
    expect(sent("/items/0/id").filter((v) => typeof v === "string" && /^\d+$/.test(v) && v !== "7001")).toEqual([]);
  });

  it("breaks a pattern by twisting the value it replaces, so a tagged name stays recognisable", () => {
    const base = fc.constant({ env_variables: [{ name: "CF_RUN_PLAIN", value: "v" }] });
    const names = sample(invalidValues(schemas.schema("EnvVarsPutRequest"), { base })).filter((c) => c.kind === "pattern").map((c) => (c.value as any).env_variables[0].name);
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect(n).toContain("CF_RUN_PLAIN");
  });

  it("with nullIsAbsent, never breaks an optional place with null", () => {
    const opts = { nullIsAbsent: true, optionalRoot: true };
    for (const name of ["UpsertWorkbookRequest", "CloneWorkbookRequest", "UpdateDeploymentRequest"] as SchemaName[])
      for (const c of sample(invalidValues(schemas.schema(name), opts))) {
        const at = c.at.split("/").slice(1);
        const broken = at.reduce((v: any, k) => v?.[k], c.value);
        expect(c.kind === "wrong-type" && broken === null, `${name} ${c.at}`).toBe(false);
      }
  });

  it("breaks the given base values, keeping what the rule does not touch", () => {
    const base = { security_context: { tenant: "t1" }, expires_in: 60 };
    for (const c of sample(invalidValues(schemas.schema("MetadataTokenRequest"), { base: fc.constant(base) }))) {
      if (c.at === "/expires_in" && typeof c.value === "object" && c.value) expect((c.value as any).security_context).toEqual({ tenant: "t1" });
    }
    expect(base).toEqual({ security_context: { tenant: "t1" }, expires_in: 60 });
  });
});

describe("malformedJson", () => {
  it("is never blank and never parses", () => {
    for (const raw of sample(malformedJson(validValues(schemas.schema("BulkMoveRequest"))))) {
      expect(raw.trim()).not.toBe("");
      expect(() => JSON.parse(raw)).toThrow();
    }
  });
});
