import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { packageRoot } from "../core/api/paths.js";

/**
 * Issue 30, "the first run is the run": npm runs `prepare` again on the first `npx conformance` in
 * a clone (npm_command "exec"; npm 9 and later install the folder whose own bin has the command's
 * name into npx's cache). A built dist/ is then taken as it is. Each case runs the script in a
 * folder with no TypeScript: a build it starts says so and stops there, without compiling anything.
 */
const PREPARE = join(packageRoot, "scripts", "prepare.mjs");
const folders: string[] = [];
afterEach(() => {
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});

function prepareIn(built: boolean, npmCommand: string): { status: number | null; stderr: string } {
  const folder = mkdtempSync(join(tmpdir(), "conformance-prepare-"));
  folders.push(folder);
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "clone", version: "0.0.0" }));
  if (built) {
    mkdirSync(join(folder, "dist", "cli"), { recursive: true });
    writeFileSync(join(folder, "dist", "cli", "conformance.js"), "");
  }
  const env = { ...process.env, npm_command: npmCommand, npm_execpath: process.env.npm_execpath ?? "npm-cli.js" };
  const run = spawnSync(process.execPath, [PREPARE], { cwd: folder, env, encoding: "utf8" });
  return { status: run.status, stderr: run.stderr };
}

describe("npm's prepare", () => {
  it("under npx (npm_command exec), takes a built dist/ as it is: no build, nothing printed", () => {
    expect(prepareIn(true, "exec")).toEqual({ status: 0, stderr: "" });
  });

  it("under npm ci or npm install, builds, and says so first", () => {
    for (const command of ["ci", "install"]) {
      const run = prepareIn(true, command);
      expect(run.stderr).toMatch(/^conformance: building dist\/ \(tsc and a bundle, 15 to 60 s\)\n/);
      // This folder has no TypeScript: the build was started and stopped at once, in one clear line.
      expect(run.stderr).toContain("typescript is not installed");
      expect(run.status).toBe(1);
    }
  });

  it("under npx in a folder never built, builds", () => {
    const run = prepareIn(false, "exec");
    expect(run.stderr).toMatch(/^conformance: building dist\//);
    expect(run.status).toBe(1);
  });
});
