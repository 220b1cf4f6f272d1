import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { SCHEMA_NAMES, Schemas, type SchemaName } from "../core/api/schemas.js";
import { acceptedSpellings, envVarName, nearMissVersionForm, holdsMarker, pageSize, rejectedVersionForm, securityContext } from "../generators/domain.js";
import { ENV_VAR_POOL, ENV_VAR_TAG, ENV_VARS, PROPERTY_ENV_VARS } from "../core/api/fixed-names.js";
import { invalidCandidates, invalidValues, longText, malformedJson, notJsonForms, validValues } from "../generators/schema.js";

/** The request bodies the spec shows (E3, E4, E6, E10, E11, E12, the env-vars PUT). */
const REQUESTS: SchemaName[] = SCHEMA_NAMES.filter((n) => n.endsWith("Request"));
const RESOURCES: SchemaName[] = [
  "Workbook",
  "Dashboard",
  "DashboardConfig",
  "DashboardAppSource",
  "DashboardWidget",
  "ReportSnapshot",
  "Environment",
  "EnvironmentVariable",
  "DeploymentVersion",
  "PageInfo",
  "ErrorBody",
  "BulkMoveFailure",
  "WorkbooksListResponse",
];
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
      const bad = sample(validValues(schemas.schema(name)))
        .map((v) => ({ v, errors: schemas.validateStrict(name, v) }))
        .filter((x) => x.errors.length);
      expect(bad.slice(0, 3)).toEqual([]);
    });

  it("survives a JSON round trip unchanged (what goes over the wire is what was generated)", () => {
    for (const name of REQUESTS) for (const v of sample(validValues(schemas.schema(name)))) expect(JSON.parse(JSON.stringify(v))).toEqual(v);
  });

  it("overrides pin domain values by JSON pointer, array elements included", () => {
    const ids = [101, 102];
    const values = sample(
      validValues(schemas.schema("BulkMoveRequest"), { overrides: { "/items/*/id": fc.constantFrom(...ids), "/folderId": fc.constant(null) } }),
    );
    // folderId is optional (the spec does not say it is required): pinned wherever it is sent.
    for (const v of values as any[]) {
      if ("folderId" in v) expect(v.folderId).toBeNull();
      for (const item of v.items) expect(ids).toContain(item.id);
    }
    expect((values as any[]).some((v) => "folderId" in v)).toBe(true);
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
    const seen = (name: SchemaName, seed = 1) =>
      new Set(fc.sample(invalidValues(schemas.schema(name)), { numRuns: 600, seed }).map((c) => `${c.kind} ${c.at}`));
    const token = seen("MetadataTokenRequest");
    expect([...token]).toEqual(
      expect.arrayContaining([
        "wrong-type ",
        "missing-required /security_context",
        "wrong-type /security_context",
        "wrong-type /expires_in",
        "out-of-range /expires_in",
      ]),
    );
    expect([...seen("DashboardAppSource")]).toContain("too-long /entry");
    const envVars = [...seen("EnvVarsPutRequest")];
    expect(envVars.some((k) => /^pattern \/env_variables\/\d+\/name$/.test(k))).toBe(true);
    expect(envVars.some((k) => /^forbidden-value \/env_variables\/\d+\/value$/.test(k))).toBe(true);
    expect([...seen("StagingToggleRequest")]).toEqual(expect.arrayContaining(["several-branches ", "missing-required /enabled", "wrong-type /branchId"]));
    expect([...seen("BulkMoveRequest")]).toEqual(expect.arrayContaining(["too-many-items /items", "wrong-type /folderId", "missing-required /items"]));
    expect([...seen("WorkspaceItemRef")]).toContain("unknown-enum /type");
    // Near misses of an advertised value: another case, capitalised, plural, a stray separator.
    const types = fc
      .sample(invalidValues(schemas.schema("WorkspaceItemRef")), { numRuns: 3000, seed: 5 })
      .filter((c) => c.kind === "unknown-enum")
      .map((c) => (c.value as any).type);
    expect(types).toEqual(expect.arrayContaining(["workbook", "Workbook", "WORKBOOKS", "WORKBOOK_"]));
  });

  it("sends the look-alike of the number it replaces, the coercion a lenient server would accept", () => {
    const base = fc.constant({ items: [{ type: "WORKBOOK", id: 7001 }], folderId: 42 });
    const cases = fc.sample(invalidValues(schemas.schema("BulkMoveRequest"), { base }), { numRuns: 2000, seed: 3 });
    const sent = (at: string) =>
      cases
        .filter((c) => c.kind === "wrong-type" && c.at === at)
        .map((c) =>
          at
            .split("/")
            .slice(1)
            .reduce((v: any, k) => v?.[k], c.value),
        );
    expect(sent("/folderId")).toContain("42");
    expect(sent("/items/0/id")).toContain("7001");
    // Never some other id, that on a real server might name an object the run does not own.
    expect(sent("/items/0/id").filter((v) => typeof v === "string" && /^\d+$/.test(v) && v !== "7001")).toEqual([]);
  });

  it("breaks a pattern by twisting the value it replaces, so a tagged name stays recognisable", () => {
    const base = fc.constant({ env_variables: [{ name: "CF_RUN_PLAIN", value: "v" }] });
    const names = sample(invalidValues(schemas.schema("EnvVarsPutRequest"), { base }))
      .filter((c) => c.kind === "pattern")
      .map((c) => (c.value as any).env_variables[0].name);
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

describe("longText", () => {
  it("is hundreds to thousands of code points long, within its bounds", () => {
    const lengths = sample(longText()).map((s) => [...s].length);
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(200);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(4000);
    expect(lengths.some((n) => n >= 1000)).toBe(true);
  });
});

describe("malformedJson", () => {
  it("is never blank and never parses", () => {
    for (const raw of sample(malformedJson(validValues(schemas.schema("BulkMoveRequest"))))) {
      expect(raw.trim()).not.toBe("");
      expect(() => JSON.parse(raw)).toThrow();
    }
  });

  it("breaks a valid body in each way a lenient parser takes (notJsonForms): a stray brace after it, a trailing comma, single quotes", () => {
    expect(notJsonForms({ enabled: false, branchName: "staging" })).toEqual([
      '{"enabled":false,"branchName":"staging"}}',
      '{"enabled":false,"branchName":"staging",}',
      "{'enabled':false,'branchName':'staging'}",
    ]);
    // Without a string there are no quotes to change: only the forms that do not parse.
    expect(notJsonForms([1, 2])).toEqual(["[1,2]}", "[1,2,]"]);
  });
});

describe("domain generators", () => {
  const listed = [
    { version: "1.6.10", releaseChannelVersion: "cubejs/cube:v1.6.10", releaseChannel: "release" },
    { version: "1.7.20", releaseChannelVersion: "cubejs/cube:v1.7.20", releaseChannel: "release" },
    { version: "1.8.0", releaseChannelVersion: "cubejs/cube:v1.8.0", releaseChannel: "latest" },
  ];

  it("the tool's env-var names are a fixed set: the tag holds no marker, names match the allowed pattern, and markers sit at the start, inside and at the end, in any case", () => {
    expect(holdsMarker(ENV_VAR_TAG, true)).toBe(false);
    expect(new Set(ENV_VAR_POOL).size).toBe(ENV_VAR_POOL.length);
    // Every name matches the pattern but the three sent to be refused, one a class: a hyphen, a leading digit, a dot.
    const outside: readonly string[] = ENV_VARS.outsidePattern;
    for (const n of ENV_VAR_POOL) {
      if (outside.includes(n)) expect(n).not.toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
      else expect(n).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
      expect(n).toContain(ENV_VAR_TAG);
    }
    expect(outside.map((n) => (n.includes("-") ? "hyphen" : /^\d/.test(n) ? "digit" : n.includes(".") ? "dot" : "?"))).toEqual(["hyphen", "digit", "dot"]);
    const names = fc.sample(envVarName(), { numRuns: 500, seed: 5 });
    expect(new Set(names)).toEqual(new Set(PROPERTY_ENV_VARS));
    const marked = names.filter((n) => holdsMarker(n, true));
    expect(marked.some((n) => /^(PASS|SECRET|TOKEN|KEY|CREDENTIAL)/i.test(n))).toBe(true);
    expect(marked.some((n) => /(PASS|SECRET|TOKEN|KEY|CREDENTIAL)$/i.test(n))).toBe(true);
    expect(marked.some((n) => /[A-Za-z0-9](PASS|SECRET|TOKEN|KEY|CREDENTIAL)[A-Za-z0-9]/i.test(n))).toBe(true);
    expect(marked.some((n) => !holdsMarker(n, false))).toBe(true);
    expect(names.some((n) => !holdsMarker(n, true))).toBe(true);
  });

  it("accepted spellings are E6 rule 1's three forms of a listed version", () => {
    expect(acceptedSpellings(listed[1])).toEqual(["1.7.20", "v1.7.20", "cubejs/cube:v1.7.20"]);
  });

  it("near misses of the accepted spellings are never one of them, trimmed or not, and reach every kind of miss", () => {
    const accepted = new Set(listed.flatMap(acceptedSpellings));
    const sent = new Set(fc.sample(nearMissVersionForm(listed), { numRuns: 2000, seed: 3 }));
    for (const s of sent) expect(accepted.has(s.trim()), s).toBe(false);
    for (const miss of [
      "V1.7.20",
      "v 1.7.20",
      "vv1.7.20",
      "1.7",
      "1.7.20.0",
      "1.7.20-rc1",
      "cubejs/cube:1.7.20",
      "CUBEJS/CUBE:v1.7.20",
      "other/image:v1.7.20",
      ":v1.7.20",
      "cubejs/cube",
    ])
      expect(sent, miss).toContain(miss);
    // Surrounding spaces and leading zeros are not unambiguous rejections: never sent as one.
    for (const s of sent) expect(/^\s|\s$|(^|[^\d])0\d/.test(s), s).toBe(false);
  });

  it("rejected version forms never carry a listed version's numbers nor spell a channel", () => {
    for (const r of fc.sample(rejectedVersionForm(listed), { numRuns: 500, seed: 2 })) {
      const numbers = (r.match(/\d+(?:\.\d+)*/g) ?? []).map((x) => x.split(".").map(Number).join("."));
      expect(
        numbers.some((n) => listed.some((l) => l.version === n)),
        r,
      ).toBe(false);
      expect(["release", "latest"]).not.toContain(r.trim().toLowerCase());
    }
  });

  it("page sizes stay within 1..n+2 (or the cap), and a long list is walked in at most maxPages pages", () => {
    for (const n of [0, 1, 6, 30, 5000])
      for (const size of fc.sample(pageSize(n, { max: 20 }), { numRuns: 50, seed: n })) {
        expect(size).toBeGreaterThanOrEqual(1);
        expect(size).toBeLessThanOrEqual(Math.min(n + 2, 20));
      }
    for (const size of fc.sample(pageSize(5000), { numRuns: 50, seed: 1 })) expect(Math.ceil(5000 / size)).toBeLessThanOrEqual(50);
  });

  it("security contexts are JSON objects", () => {
    for (const c of fc.sample(securityContext(), { numRuns: 200, seed: 4 })) {
      expect(typeof c === "object" && c !== null && !Array.isArray(c)).toBe(true);
      expect(JSON.parse(JSON.stringify(c))).toEqual(c);
    }
  });
});
