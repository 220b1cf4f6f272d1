// Run by `prepare` after the build: links the project's own bin into node_modules/.bin, so that
// `npx conformance` in a clone runs the dist/ that `npm ci` just built, instead of npx installing
// the folder into its cache and building it again, silently (50 s and more before the first line).
import { mkdirSync, rmSync, symlinkSync } from "node:fs";

mkdirSync("node_modules/.bin", { recursive: true });
rmSync("node_modules/.bin/conformance", { force: true });
symlinkSync("../../dist/bin/conformance.js", "node_modules/.bin/conformance");
