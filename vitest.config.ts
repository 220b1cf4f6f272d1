import { basename, relative } from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The longest test files, longest first (their wall time in `npm test`, three workers on two
 * cores, 2026-11-29, after the twentieth round cut the ledger's and the gate's runs). Without durations of an earlier run (a fresh clone, CI),
 * vitest starts the largest files first, by bytes: the clean runs' files are a few lines long and
 * started last, and ran on alone at the end with one core idle (483 s where the same tests took
 * 363 s in the order of known durations). A file not listed is short; a stale list costs order only.
 */
const LONGEST_FIRST = [
  "clean.test.ts",
  "ledger-settings.test.ts",
  "clean-variants-3.test.ts",
  "clean-variants-1.test.ts",
  "clean-variants-2.test.ts",
  "ledger.test.ts",
  "ledger-independent.test.ts",
  "faults.test.ts",
  "reproducibility.test.ts",
  "independent.test.ts",
  "safety.test.ts",
  "ci-examples.test.ts",
  "faults-properties.test.ts",
  "huge.test.ts",
  "shard.test.ts",
  "gate.test.ts",
  "door.test.ts",
  "concurrency.test.ts",
  "cli-inputs.test.ts",
  "chaos.test.ts",
  "pipes.test.ts",
];

/** Known durations of an earlier run where every file has one (failed files first), else LONGEST_FIRST. */
class LongestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const timed = (f: TestSpecification) => this.ctx.cache.getFileTestResults(`${f.project.name}:${relative(root, f.moduleId)}`)?.duration !== undefined;
    if (sorted.every(timed)) return sorted;
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.indexOf(basename(f.moduleId));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

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
    sequence: { sequencer: LongestFirst },
  },
});
