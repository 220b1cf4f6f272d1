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
    // The files of a worker share one module graph: each file imported the whole catalogue, the
    // reference and the contract again, compiled its schemas again and ran its first run on cold
    // code (4 s of CPU a file, 43 % of eight mid-size files' CPU: docs/benchmarks.md). No test
    // depends on a fresh module: caches are keyed by their inputs, a test that sets an environment
    // variable or a process listener puts it back.
    isolate: false,
  },
});
