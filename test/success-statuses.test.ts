import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SUCCESS } from "../suites/lib/success.js";

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));

/** A list of two or more 2xx statuses written out: an allow-list of its own where the spec names no status. */
const ALLOW_LIST = /\[\s*2\d\d\s*,\s*2\d\d/;

describe("a success as HTTP allows it has one home (issue 28)", () => {
  it("no check writes its own list of 2xx statuses: suites/lib/success.ts holds it", () => {
    const own = files("suites").filter((f) => !f.endsWith(join("lib", "success.ts")) && ALLOW_LIST.test(readFileSync(f, "utf8")));
    expect(own).toEqual([]);
  });

  it("every write method accepts 202 (with or without a Location) and a body-less 204", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) expect(SUCCESS[method]).toEqual(expect.arrayContaining([200, 202, 204]));
  });
});
