/**
 * The CI examples run as written: a temporary project installs the packed suite from the path the
 * example pins, and runs each shell block of the example, in order, against a reference server
 * with a fault, as a CI job would against a server still being built: the first run makes the
 * baseline, the gated run passes with it. SLOW: two npm installs of the tarball and four runs of
 * the read-only suite (about 35 s on an idle 2-core machine); it needs dist/ built (npm test
 * builds first) and the npm registry or a warm npm cache.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../core/api/paths.js";
import { startReference, type RunningReference } from "../reference/server.js";

/** The shell blocks of a workflow (`run: |` of GitHub steps, `- |` items of GitLab scripts), in order, dedented. */
function shellBlocks(yaml: string): string[] {
  const lines = yaml.split("\n");
  const blocks: string[] = [];
  lines.forEach((line, i) => {
    const head = /^(\s*)(?:run: \||- \|)\s*$/.exec(line);
    if (!head) return;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && (lines[j].trim() === "" || lines[j].search(/\S/) > head[1].length); j++) body.push(lines[j]);
    const indent = Math.min(...body.filter((l) => l.trim()).map((l) => l.search(/\S/)));
    blocks.push(
      body
        .map((l) => l.slice(indent))
        .join("\n")
        .trim(),
    );
  });
  return blocks;
}

/** One shell block as a CI runner runs it (bash -e), without blocking this process: the reference answers from it. */
function sh(block: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-e", "-c", block], { cwd, env });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ code: code ?? -1, output }));
  });
}

const EXAMPLES = ["github-actions.yml", "gitlab-ci.yml"].map((name) => ({ name, yaml: readFileSync(join(packageRoot, "docs", "ci", name), "utf8") }));
let project: string;
let tarball: string;
let ref: RunningReference;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "conformance-ci-"));
  // The package as npm would publish it (dist/ as built; scripts not run again).
  const packed = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", project], { cwd: packageRoot, encoding: "utf8" })
    .trim()
    .split("\n")
    .at(-1)!;
  tarball = join(project, packed);
});
afterAll(async () => {
  await ref?.close();
  rmSync(project, { recursive: true, force: true });
});

describe("docs/ci examples run as written (SLOW: two npm installs of the packed tarball, four runs of the suite)", () => {
  for (const example of EXAMPLES) {
    it(`${example.name}: checks out, installs the pinned package, makes the first baseline, then passes the gate with it`, async () => {
      const blocks = shellBlocks(example.yaml);
      expect(blocks.length).toBeGreaterThanOrEqual(3);
      if (example.name.startsWith("github")) expect(example.yaml).toMatch(/uses: actions\/checkout@v4/);
      const pinned = /^\s+CONFORMANCE_PACKAGE: (\S+)/m.exec(example.yaml)![1];
      const job = join(project, example.name.replace(/\W/g, "-"));
      // The checkout: the job's repository holds the pinned tarball (and, at first, no baseline).
      mkdirSync(dirname(join(job, pinned)), { recursive: true });
      if (!existsSync(join(job, pinned))) execFileSync("cp", [tarball, join(job, pinned)]);
      ref ??= await startReference({ faults: ["deployments-total-off-by-one"] });
      // A CI job's shell: none of the npm_* variables of the npx that started this test.
      const shell = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")));
      // From npm's cache where it can: the registry is asked only for what the cache lacks.
      const env = {
        ...shell,
        npm_config_prefer_offline: "true",
        npm_config_update_notifier: "false",
        CONFORMANCE_PACKAGE: pinned,
        CONFORMANCE_BASE_URL: ref.url,
        CONFORMANCE_TOKEN: String(ref.config().token),
        GITHUB_ACTIONS: "",
        CI: "true",
      };
      for (const block of blocks) {
        const step = await sh(block, job, env);
        expect(step.code, `${block}\n${step.output}`).toBe(0);
      }
      const baseline = JSON.parse(readFileSync(join(job, "conformance-baseline.json"), "utf8"));
      expect(baseline.knownFailures.length).toBeGreaterThan(0);
      const report = JSON.parse(readFileSync(join(job, "reports", "report.json"), "utf8"));
      expect(report.gate.exitCode).toBe(0);
      expect(report.gate.baseline.known.length).toBe(baseline.knownFailures.length);
      for (const f of ["junit.xml", "report.html", "ctrf-report.json", "run.har"]) expect(existsSync(join(job, "reports", f)), f).toBe(true);
      // With the baseline committed, the first-baseline block does nothing.
      const firstBaseline = blocks.find((b) => b.includes("conformance baseline "))!;
      renameSync(join(job, "reports"), join(job, "reports-1"));
      expect((await sh(firstBaseline, job, env)).code).toBe(0);
      expect(existsSync(join(job, "reports", "first-run"))).toBe(false);
    });
  }
});
