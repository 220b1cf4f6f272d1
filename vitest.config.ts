import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Vitest's default on a 2-core machine is one worker (cores - 1); most test files wait on a
    // server, a child process or the browser, so three at once keep both cores busy.
    maxWorkers: 3,
  },
});
