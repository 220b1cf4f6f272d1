import { expect, it } from "vitest";
import { canonicalJson } from "../suites/lib/values.js";

it("a record's canonical JSON is the same whatever order its keys were written in, at every depth", () => {
  expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: null } })).toBe(canonicalJson({ a: { c: null, d: [1, { e: 3, f: 2 }] }, b: 1 }));
  expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: "1" }));
});
