import { beforeAll, describe, expect, it } from "vitest";
import { Schemas } from "../core/api/schemas.js";
import { readableWithout, spellsAllowed } from "../suites/lib/lenient-reading.js";

/** Issue 20 §1: a mistyped optional field beside valid ones may be read as absent, whatever its type. */
let schemas: Schemas;
beforeAll(async () => {
  schemas = await Schemas.load();
});

describe("readableWithout", () => {
  it("a mistyped branchName beside a branchId (object, array, number, boolean, null) reads as the toggle of that branch", () => {
    const absent = readableWithout(schemas.schema("StagingToggleRequest"));
    for (const v of [{}, [], 1, true, null])
      expect(absent({ kind: "wrong-type", at: "/branchName", body: { enabled: false, branchId: 301, branchName: v } }), JSON.stringify(v)).toBe(true);
  });

  it("a mistyped shared reads as a plain clone; a mistyped required field, or the only branch reference, does not", () => {
    expect(readableWithout(schemas.schema("CloneWorkbookRequest"))({ kind: "wrong-type", at: "/shared", body: { shared: {} } })).toBe(true);
    const staging = readableWithout(schemas.schema("StagingToggleRequest"));
    expect(staging({ kind: "wrong-type", at: "/enabled", body: { enabled: {}, branchId: 301 } })).toBe(false);
    expect(staging({ kind: "wrong-type", at: "/branchName", body: { enabled: false, branchName: {} } })).toBe(false);
  });
});

describe("spellsAllowed (issue 28)", () => {
  it("a boolean where a number is declared spells 1 or 0, as a mainstream framework's lax mode reads it", () => {
    expect(spellsAllowed(true, ["number"])).toBe(true);
    expect(spellsAllowed(false, ["integer"])).toBe(true);
    expect(spellsAllowed({}, ["number"])).toBe(false);
  });

  it("Ajv's coercion (Fastify's default): null spells an empty or zero scalar, an array of one item that item; a longer array or an object nothing", () => {
    expect(spellsAllowed([1], ["integer"])).toBe(true);
    expect(spellsAllowed(["5"], ["number"])).toBe(true);
    expect(spellsAllowed([true], ["boolean"])).toBe(true);
    expect(spellsAllowed(null, ["boolean"])).toBe(true);
    expect(spellsAllowed([1, 2], ["integer"])).toBe(false);
    expect(spellsAllowed([{}], ["integer"])).toBe(false);
    expect(spellsAllowed([1], ["array"])).toBe(false);
  });
});
