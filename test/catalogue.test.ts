import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { packageRoot } from "../core/api/paths.js";
import { catalogueMarkdown } from "../scripts/catalogue.js";
import { idsModule } from "../scripts/ids.js";

it("CATALOGUE.md is current (npm run catalogue rewrites it)", () => {
  expect(readFileSync(join(packageRoot, "CATALOGUE.md"), "utf8")).toBe(catalogueMarkdown());
});

it("core/model/ids.ts, the CheckId type, is current (npm run catalogue rewrites it)", () => {
  expect(readFileSync(join(packageRoot, "core", "model", "ids.ts"), "utf8")).toBe(idsModule());
});
