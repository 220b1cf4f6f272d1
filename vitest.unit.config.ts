import { defineConfig } from "vitest/config";

/**
 * The fast lane (`npm run test:unit`, well under 30 s): tests of the model, the table, the
 * registries and the generated files that start no server and run no check. `npm test` runs them
 * too, beside everything else. A test joins this list only if it stays that fast.
 */
const UNIT_TESTS = [
  "test/catalogue.test.ts",
  "test/coverage.test.ts",
  "test/fault-reasons.test.ts",
  "test/generators-all-of.test.ts",
  "test/generators-any-schema.test.ts",
  "test/har.test.ts",
  "test/layers.test.ts",
  "test/lenient-reading.test.ts",
  "test/levels.test.ts",
  "test/schemas-choices.test.ts",
  "test/schemas.test.ts",
  "test/operation-types.test.ts",
  "test/secret-values.test.ts",
  "test/served-model.test.ts",
  "test/spec-operations.test.ts",
  "test/spec-removals.test.ts",
  "test/verdict.test.ts",
  "test/walk-page-sizes.test.ts",
];

export default defineConfig({ test: { include: UNIT_TESTS, testTimeout: 60_000, hookTimeout: 60_000, maxWorkers: 3 } });
