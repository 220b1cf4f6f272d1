import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { packageRoot } from "../core/api/paths.js";

// `npx conformance` runs the package's bin file itself, not through node: a build that leaves it
// without its executable bit makes the README's first command fail with "Permission denied".
it("the built bin runs as a program (npx conformance), not only as node's argument", () => {
  const run = spawnSync(join(packageRoot, "dist", "cli", "conformance.js"), ["--help"], { encoding: "utf8" });
  expect(run.error?.message ?? "", "npm run build sets the executable bit").toBe("");
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain("Usage: conformance");
});
