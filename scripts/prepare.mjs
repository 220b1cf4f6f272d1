// npm's `prepare`: builds dist/ on `npm ci` and `npm install` in a clone, saying so.
//
// npm runs it once more on the first `npx conformance` in the clone: npm (9 and later) finds the
// command among the folder's own bins, installs the folder into npx's cache (a link to it) and
// prepares it, with npm_command "exec". dist/ is then what `npm ci` has just built, and building it
// again cost 5 to 6 s and 370 MiB before the run's first line, with nothing printed (npx hides a
// lifecycle script's output). So under npx a built dist/ is taken as it is; a folder never built
// is built.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";

const BIN = "dist/cli/conformance.js";

if (process.env.npm_command === "exec" && existsSync(BIN)) process.exit(0);

console.error("conformance: building dist/ (tsc and a bundle, 15 to 60 s)");
if (!process.env.npm_execpath) {
  console.error("conformance: cannot build dist/ outside npm: run npm ci (or npm run build)");
  process.exit(2);
}
let tsc;
try {
  tsc = createRequire(`${process.cwd()}/package.json`).resolve("typescript/bin/tsc");
} catch {
  console.error("conformance: cannot build dist/: typescript is not installed (npm ci installs it)");
  process.exit(1);
}
for (const args of [[tsc, "-p", "tsconfig.test.json"], [process.env.npm_execpath, "run", "-s", "bundle"]]) {
  const step = spawnSync(process.execPath, args, { stdio: "inherit" });
  if (step.status !== 0) process.exit(step.status ?? 1);
}
