import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../core/api/paths.js";
import type { Check } from "../core/check/check.js";
import { catalogue } from "../suites/index.js";

/**
 * The layers of core/ and the group folders of suites/ (docs/design.md, "Layers"), read from the
 * sources as they stand: an import from one group's folder into another's fails here, and so does
 * an import up a layer or out of core (issue 27 measured 28; none is left).
 * Every folder of suites/ but lib/ is a group, named as the folder, which holds that group's
 * checks and no other's: `--group <name>` and the report's groups are the folders.
 */

/** Bottom first: a folder imports only from its own layer and those before it. */
const LAYERS = ["model", "api", "transport", "served", "ledger", "check", "run", "reporters"];

/** Every relative import of the .ts files under a folder, as `from -> to` with both paths from the package root. */
function importsUnder(dir: string): [string, string][] {
  return readdirSync(join(packageRoot, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .flatMap((f) => {
      const from = join(dir, f);
      const text = readFileSync(join(packageRoot, from), "utf8");
      return [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/gms)].map((m): [string, string] => [
        from,
        relative(packageRoot, resolve(dirname(join(packageRoot, from)), m[1])).replace(/\.js$/, ".ts"),
      ]);
    });
}

/** The folders of suites/ that are groups: all but lib/, what several groups share. */
const groupFolders = readdirSync(join(packageRoot, "suites"), { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name !== "lib")
  .map((e) => e.name)
  .sort();

const shown = (arrows: [string, string][]) => arrows.map(([a, b]) => `${a} -> ${b}`).sort();

describe("layers and group folders", () => {
  it("inside core/, no import runs up a layer or out of core", () => {
    const layer = (path: string) => LAYERS.indexOf(path.split("/")[1]);
    const up = importsUnder("core").filter(([from, to]) => !to.startsWith("core/") || layer(to) > layer(from));
    expect(shown(up)).toEqual([]);
  });

  it("every folder of core/ is a layer", () => {
    const folders = readdirSync(join(packageRoot, "core"), { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(folders.map((e) => e.name).filter((n) => !LAYERS.includes(n))).toEqual([]);
  });

  it("no group's folder imports another's: what groups share is in suites/lib", () => {
    const folder = (path: string) => path.split("/")[1];
    const cross = importsUnder("suites").filter(
      ([from, to]) => from.split("/").length > 2 && to.startsWith("suites/") && to.split("/").length > 2 && folder(to) !== folder(from) && folder(to) !== "lib",
    );
    expect(shown(cross)).toEqual([]);
  });

  it("suites/lib imports no group's folder", () => {
    expect(shown(importsUnder("suites/lib").filter(([, to]) => to.startsWith("suites/") && !to.startsWith("suites/lib/")))).toEqual([]);
  });

  it("every group of the catalogue has its folder in suites/, and every folder but lib/ is a group", () => {
    expect(groupFolders).toEqual([...new Set(catalogue.map((c) => c.group))].sort());
  });

  it("a group's folder exports, through its index.ts, that group's checks and no other's", async () => {
    for (const folder of groupFolders) {
      const exported: Record<string, unknown> = await import(join(packageRoot, "suites", folder, "index.ts"));
      const checks = Object.values(exported).flat() as Check[];
      expect([folder, checks.map((c) => c.id).sort()]).toEqual([
        folder,
        catalogue
          .filter((c) => c.group === folder)
          .map((c) => c.id)
          .sort(),
      ]);
    }
  });
});
