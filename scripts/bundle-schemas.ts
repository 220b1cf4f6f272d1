/**
 * Writes schemas/openapi.bundled.json: schemas/openapi.json with the component files it refers to
 * bundled in, as @apidevtools/json-schema-ref-parser bundles it. Each run and the reference read
 * that one file instead of bundling some sixty at start (a tenth of a second each time).
 * test/schemas.test.ts fails when it is not the bundle of the sources: run `npm run schemas`.
 * Usage: npm run schemas
 */
import $RefParser from "@apidevtools/json-schema-ref-parser";
import { writeFileSync } from "node:fs";
import { bundledOpenApiPath, openApiPath } from "../core/api/schemas.js";

const bundled = await $RefParser.bundle(openApiPath);
writeFileSync(bundledOpenApiPath, `${JSON.stringify(bundled, null, 2)}\n`);
console.log(`written: ${bundledOpenApiPath}`);
