import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // A guard against a hang, not a bound on speed: no test's outcome may depend on the machine's
    // load (a test that must finish may take many times longer on a busy machine). Speed is measured
    // by `npm run bench`; bounds a test needs derive from a measurement in that test.
    testTimeout: 900_000,
    hookTimeout: 900_000,
    // Vitest's default on a 2-core machine is one worker (cores - 1); most test files wait on a
    // server, a child process or the browser, so three at once keep both cores busy.
    maxWorkers: 3,
  },
});
