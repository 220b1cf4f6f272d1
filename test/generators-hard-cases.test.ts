import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { conforms, NotGenerated, validValues, type Schema } from "../generators/index.js";
import { withoutLookaround } from "../generators/schema-valid.js";

/**
 * Schemas a mainstream framework's generated document carries (issue 28): patterns with length
 * limits, formats, `oneOf` with null, `type` arrays. Each must draw values that satisfy it; a
 * "not generated" here would leave a check's case unjudged. Cases in the manner of the JSON Schema
 * Test Suite (draft2020-12: pattern, format, oneOf, type).
 */
const HARD: Record<string, Schema> = {
  "a cron pattern with no maxLength": { type: "string", pattern: "^(\\S+\\s+){4}\\S+$" },
  "a cron pattern within 64 characters": { type: "string", pattern: "^(\\S+\\s+){4}\\S+$", minLength: 9, maxLength: 64 },
  "a pattern with a minLength past the default length": { type: "string", pattern: "^[a-z0-9-]+$", minLength: 20, maxLength: 40 },
  "a short pattern in a long bound": { type: "string", pattern: "^[A-Z]{2,3}$", maxLength: 255 },
  "an unanchored pattern": { type: "string", pattern: "[0-9]{3}", maxLength: 10 },
  // fast-check's stringMatching builds no lookaround: a blind Python server's file path (issue 30).
  "a pattern with negative lookaheads": { type: "string", pattern: "^(?!/)(?!.*\\.\\.)[A-Za-z0-9_./-]{1,300}$" },
  "a pattern with a lookahead and a lookbehind, and parentheses in a class": { type: "string", pattern: "^(?=.*[0-9])[a-z0-9()]{4,12}(?<![(])$" },
  email: { type: "string", format: "email" },
  uuid: { type: "string", format: "uuid" },
  ipv4: { type: "string", format: "ipv4" },
  ipv6: { type: "string", format: "ipv6" },
  hostname: { type: "string", format: "hostname" },
  time: { type: "string", format: "time" },
  "uri-reference": { type: "string", format: "uri-reference" },
  "email within 40 characters": { type: "string", format: "email", maxLength: 40 },
  "oneOf a format or null": { oneOf: [{ type: "string", format: "date-time" }, { type: "null" }] },
  "a type array with a format": { type: ["string", "null"], format: "uuid" },
  "a type array with a pattern": { type: ["string", "integer"], pattern: "^[a-z]{4}$" },
  "an object whose required property has a pattern and a length": {
    type: "object",
    required: ["schedule"],
    properties: { schedule: { type: "object", required: ["cron"], properties: { cron: { type: "string", pattern: "^(\\S+\\s+){4}\\S+$", maxLength: 100 } } } },
  },
};

describe("generators draw the hard cases of a generated document", () => {
  for (const [name, schema] of Object.entries(HARD))
    it(name, () => {
      const values = fc.sample(validValues(schema, { name }), { numRuns: 25, seed: 5 });
      const accepts = conforms(schema);
      for (const v of values) expect(accepts(v), JSON.stringify(v)).toBe(true);
    });
});

describe("a pattern no generator builds is not generated, never a tester error", () => {
  it("a backreference, or a pattern ECMA-262 does not read, is NotGenerated with the pattern named", () => {
    for (const pattern of ["^(a+)\\1$", "^(?P<name>x)$", "^[a-"])
      expect(() => fc.sample(validValues({ type: "string", pattern }, { name: pattern }), 1), pattern).toThrow(NotGenerated);
  });

  it("lookaround groups are taken out whole, escapes and character classes read as such", () => {
    expect(withoutLookaround("^(?!/)(?!.*\\.\\.)[A-Za-z0-9_./-]{1,3}$")).toBe("^[A-Za-z0-9_./-]{1,3}$");
    expect(withoutLookaround("^(?=(a|b)[)])\\(x(?<!\\))(?<name>y)$")).toBe("^\\(x(?<name>y)$");
  });
});
