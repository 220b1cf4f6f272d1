import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { conforms, invalidValues, type Schema } from "../generators/index.js";

/**
 * An allOf holds when every member holds: an invalid value breaks one rule of one member (a
 * required field of any member missing, a member's property mistyped), the rest staying valid.
 */
const owner: Schema = { type: "object", required: ["id"], properties: { id: { type: "integer" } } };
const named: Schema = { type: "object", required: ["name"], properties: { name: { type: "string", maxLength: 20 } } };
const body: Schema = { allOf: [owner, named], properties: { note: { type: "string" } } };

/** Every broken place and kind the generator draws, over enough runs to meet each. */
function breaks(schema: Schema): Set<string> {
  const accepts = conforms(schema);
  const drawn = fc.sample(invalidValues(schema, { name: "allOf body" }), { numRuns: 300, seed: 7 });
  for (const c of drawn) expect(accepts(c.value), JSON.stringify(c)).toBe(false);
  return new Set(drawn.map((c) => `${c.kind} ${c.at}`));
}

describe("invalid values of a schema with allOf", () => {
  it("leave out a required field of each member", () => {
    const seen = breaks(body);
    expect(seen).toContain("missing-required /id");
    expect(seen).toContain("missing-required /name");
  });

  it("mistype a property of each member, and break its other rules", () => {
    const seen = breaks(body);
    expect(seen).toContain("wrong-type /id");
    expect(seen).toContain("wrong-type /name");
    expect(seen).toContain("too-long /name");
    // The schema's own properties beside allOf are broken too.
    expect(seen).toContain("wrong-type /note");
  });

  it("break an allOf nested under a property and under array items", () => {
    const nested: Schema = {
      type: "object",
      required: ["owner", "list"],
      properties: { owner: { allOf: [owner, named] }, list: { type: "array", minItems: 1, items: { allOf: [owner] } } },
    };
    const seen = [...breaks(nested)];
    expect(seen).toContain("missing-required /owner/name");
    expect(seen).toContain("wrong-type /owner/id");
    expect(seen.some((b) => /^(missing-required|wrong-type) \/list\/0\/id$/.test(b))).toBe(true);
  });
});
