import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../core/api/paths.js";

/**
 * The layers of core/ and the group folders of suites/ (docs/design.md, "Layers"), read from the
 * sources as they stand: an import up a layer, or from one group's folder into another's, fails
 * here unless it is one of the arrows still to remove, listed below. The lists only shrink: an
 * arrow removed from the code must be removed from its list too, so that it cannot come back.
 */

/** Bottom first: a folder imports only from its own layer and those before it. */
const LAYERS = ["model", "api", "transport", "served", "ledger", "run", "reporters"];

/** Arrows up a layer (or out of core) that the code still has (issue 27): each to be turned around, then struck. */
const UP_STILL = [
  "core/ledger/sweep.ts -> core/run/settings.ts",
  "core/model/check.ts -> core/run/watcher.ts",
  "core/model/context.ts -> core/ledger/scratch.ts",
  "core/model/context.ts -> core/run/fixtures.ts",
  "core/model/context.ts -> core/run/settings.ts",
  "core/model/context.ts -> core/served/read.ts",
  "core/model/context.ts -> core/api/endpoints.ts",
  "core/model/context.ts -> core/api/schemas.ts",
  "core/model/context.ts -> core/transport/api.ts",
  "core/model/context.ts -> core/transport/http.ts",
  "core/model/expect.ts -> core/api/schemas.ts",
  "core/model/expect.ts -> core/transport/http.ts",
  "core/model/outcome.ts -> core/transport/http.ts",
  "core/model/result.ts -> core/run/class-tally.ts",
  "core/model/result.ts -> core/served/read.ts",
  "core/model/result.ts -> core/transport/http.ts",
  "core/run/conformance.ts -> core/reporters/report.ts",
  "core/run/write-plan.ts -> generators/index.ts",
  // A required body field the run does not test gets a value its documented schema takes (issue 28): drawn by the generators.
  "core/served/served-operations.ts -> generators/index.ts",
  // The fixed pool of template variable names the run may leave (an unremovable write) is the generators' vocabulary.
  "core/ledger/records.ts -> generators/index.ts",
  // So is the fixed pool of environment variable names (the door's entries of unremovable writes).
  "core/ledger/door-entries.ts -> generators/index.ts",
  "core/served/given-document.ts -> core/run/settings.ts",
  "core/api/client.ts -> core/transport/http.ts",
  "core/api/deployment-updates.ts -> core/transport/http.ts",
  "core/api/deployments.ts -> core/transport/api.ts",
  "core/api/deployments.ts -> core/transport/pagination.ts",
  "core/transport/headers.ts -> core/run/settings.ts",
  "core/transport/pagination.ts -> core/run/preconditions.ts",
  "core/transport/read-back.ts -> core/ledger/scratch.ts",
];

/** Imports from one group's folder into another's, not through suites/lib, that the code still has (issue 27). */
const CROSS_STILL = [
  "suites/auth/every-operation.ts -> suites/documented/requests.ts",
  "suites/auth/every-operation.ts -> suites/documented/resources.ts",
  "suites/bulk-move/mixed-kinds.ts -> suites/e14/report-calls.ts",
  "suites/documented/opt-ins.ts -> suites/e14/admin.ts",
  "suites/errors/negative.ts -> suites/bulk-move/negative-stage.ts",
  "suites/errors/negative.ts -> suites/env-vars/negative-stage.ts",
  "suites/errors/server-errors.ts -> suites/tokens/metadata-token.ts",
  "suites/pagination/properties.ts -> suites/env-vars/calls.ts",
  "suites/workspace/negative.ts -> suites/bulk-move/negative-stage.ts",
  "suites/workspace/negative.ts -> suites/clone/negative-stage.ts",
  "suites/workspace/negative.ts -> suites/upsert/negative-stage.ts",
];

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

const shown = (arrows: [string, string][]) => arrows.map(([a, b]) => `${a} -> ${b}`).sort();

describe("layers and group folders", () => {
  it("inside core/, no import runs up a layer or out of core, but those still listed", () => {
    const layer = (path: string) => LAYERS.indexOf(path.split("/")[1]);
    const up = importsUnder("core").filter(([from, to]) => !to.startsWith("core/") || layer(to) > layer(from));
    expect(shown(up)).toEqual([...UP_STILL].sort());
  });

  it("every folder of core/ is a layer", () => {
    const folders = readdirSync(join(packageRoot, "core"), { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(folders.map((e) => e.name).filter((n) => !LAYERS.includes(n))).toEqual([]);
  });

  it("no group's folder imports another's (what groups share is in suites/lib), but those still listed", () => {
    const folder = (path: string) => path.split("/")[1];
    const cross = importsUnder("suites").filter(
      ([from, to]) => from.split("/").length > 2 && to.startsWith("suites/") && to.split("/").length > 2 && folder(to) !== folder(from) && folder(to) !== "lib",
    );
    expect(shown(cross)).toEqual([...CROSS_STILL].sort());
  });

  it("suites/lib imports no group's folder", () => {
    expect(shown(importsUnder("suites/lib").filter(([, to]) => to.startsWith("suites/") && !to.startsWith("suites/lib/")))).toEqual([]);
  });
});
