/**
 * Writes docs/coverage.md: every rule of the spec and the checks that cite it. `npm run catalogue`
 * (or `npm run coverage`); test/coverage.test.ts keeps it current.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { coverageMarkdown } from "../core/served/coverage.js";
import { packageRoot } from "../core/api/paths.js";
import { catalogue } from "../suites/index.js";
import { ruleRanges } from "../suites/ranges.js";

if (process.argv[1]?.endsWith("coverage.js")) writeFileSync(join(packageRoot, "docs", "coverage.md"), coverageMarkdown(catalogue, ruleRanges));
