import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { conforms, invalidValues, NotGenerated, validValues, type Schema } from "../generators/index.js";

/**
 * Generators never crash or hang on a valid JSON Schema of OpenAPI 3.1: each schema of the fixture
 * (the forms a published document uses) gives values that satisfy (or break) it, or a NotGenerated
 * error that names the schema, within a bound.
 */
const fixture = JSON.parse(readFileSync(new URL("./fixtures/openapi-3.1-schemas/schemas.json", import.meta.url), "utf8")) as {
  schemas: Record<string, Schema>;
};
/** A guard against a blow-up (a schema followed forever), generous enough for a loaded machine: it bounds, it does not time. */
const BOUND_MS = 60_000;

/** The values, or the NotGenerated error; anything else (a crash) throws. */
function derive(make: () => fc.Arbitrary<unknown>, name: string): unknown[] | NotGenerated {
  try {
    return fc.sample(make(), { numRuns: 30, seed: 3 });
  } catch (err) {
    if (err instanceof NotGenerated) {
      expect(err.message).toContain(name);
      return err;
    }
    throw err;
  }
}

describe("generators on any valid schema of OpenAPI 3.1", () => {
  for (const [name, schema] of Object.entries(fixture.schemas))
    it(name, () => {
      const started = Date.now();
      const accepts = conforms(schema);
      const valid = derive(() => validValues(schema, { name }), name);
      if (Array.isArray(valid)) for (const v of valid) expect(accepts(v), JSON.stringify(v)).toBe(true);
      const invalid = derive(() => invalidValues(schema, { name }).map((c) => c.value), name);
      if (Array.isArray(invalid)) for (const v of invalid) expect(accepts(v), JSON.stringify(v)).toBe(false);
      expect(Date.now() - started).toBeLessThan(BOUND_MS);
    });

  it("derives values where a union with null leaves a satisfiable branch", () => {
    for (const name of [
      "integer-oneOf-null",
      "integer-anyOf-null",
      "number-oneOf-null",
      "environment-type-overlapping-oneOf",
      "enum-of-mixed",
      "const-object",
      "empty",
    ])
      expect(Array.isArray(derive(() => validValues(fixture.schemas[name], { name }), name)), name).toBe(true);
  });

  it("says 'not generated', naming the schema, where no value satisfies it", () => {
    for (const name of ["enum-outside-type", "contradiction"])
      expect(derive(() => validValues(fixture.schemas[name], { name }), name)).toBeInstanceOf(NotGenerated);
  });

  it("a recursive schema (a dereferenced self-reference) is bounded, not followed forever", () => {
    const node: Schema = { type: "object", properties: { name: { type: "string" } } };
    node.properties.children = { type: "array", items: node };
    const started = Date.now();
    const valid = derive(() => validValues(node, { name: "tree" }), "tree");
    if (Array.isArray(valid)) for (const v of valid) expect(conforms(node)(v)).toBe(true);
    expect(Date.now() - started).toBeLessThan(BOUND_MS);
  });
});
