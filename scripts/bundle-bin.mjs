// The command people run, bundled: dist/cli/conformance.js and its chunks, from what tsc built in
// dist/. Node's loader resolves, reads and links each of some 700 modules (ours, undici's, ajv's)
// one by one: 200 to 300 ms of every run's start on the 2-core machines, a third of the time
// before the first request (docs/benchmarks.md, sixteenth round). One bundle with a chunk per
// lazily imported part keeps `--help` from loading the suites.
//
// Bundled from dist/ (tsc's output, the code the tests import), not from the sources: the bundle
// is the same JavaScript, only its modules joined.
import { build } from "esbuild";
import { chmodSync, rmSync } from "node:fs";

const OUT = "dist/cli";

// Chunks are named by their content: last build's would stay beside this one's.
rmSync(OUT, { recursive: true, force: true });

await build({
  entryPoints: { conformance: "dist/bin/conformance.js" },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.18",
  chunkNames: "chunks/[name]-[hash]",
  // The CommonJS libraries it holds (undici, ajv, commander) call require for Node's own modules.
  banner: { js: 'import { createRequire as __conformanceRequire } from "node:module"; const require = __conformanceRequire(import.meta.url);' },
  sourcemap: "linked",
  logLevel: "warning",
});
chmodSync(`${OUT}/conformance.js`, 0o755);
