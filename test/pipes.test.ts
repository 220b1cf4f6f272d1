import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../bin/cli.js";

const BIN = join(import.meta.dirname, "..", "dist", "cli", "conformance.js");

/**
 * The built CLI behind a real pipe of the shell (a pipe has a 64 KiB buffer, unlike the socket
 * pairs Node gives a child), read as in a CI job: `slow` reads nothing until `mark` exists (a
 * file the CLI writes just before its last lines; without one, 0.3 s), so that the pipe is full
 * when the CLI ends, as behind `| (sleep 1; wc -c)` or a `tee` held up by its terminal; `close`
 * takes 100 bytes and closes it (`| head -c 100`). stderr goes through a slow pipe too.
 * Resolves with the CLI's own exit code.
 */
function piped(args: string[], reader: "slow" | "close", env: Record<string, string> = {}, mark = "") {
  const read = reader === "slow" ? `{ until [ -z "$MARK" ] || [ -e "$MARK" ]; do sleep 0.05; done; sleep 0.3; cat; }` : "head -c 100";
  const script = `{ "$0" "$@" 2>&1 1>&3 3>&- | { sleep 0.3; cat; } >&2; exit \${PIPESTATUS[0]}; } 3>&1 | ${read}; exit \${PIPESTATUS[0]}`;
  return new Promise<{ code: number | null; stdout: Buffer; stderr: string }>((resolve) => {
    const child = spawn("bash", ["-c", script, process.execPath, BIN, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env, MARK: mark },
    });
    const chunks: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => resolve({ code, stdout: Buffer.concat(chunks), stderr }));
  });
}

/**
 * Failing runs with GitHub annotations, whose last lines are what a CI log loses first: the big
 * one prints more than a pipe's buffer (about 72 KB in 4 s: two endpoints missing, their checks
 * failed or blocked, and two lists whose answers break their schema, each failure with its
 * details; --verbose lists every skipped check; annotations alone are capped at 10), the small
 * one only a few failures.
 */
const FAILING = [
  "--reference",
  "--allow-writes",
  "--verbose",
  "--fault",
  "e11-missing",
  "e3-missing",
  "deployments-created-at-missing",
  "environments-pageinfo-missing",
  "--group",
  "upsert",
  "clone",
  "bulk-move",
  "workspace",
  "tokens",
  "deployments",
  "environments",
  "--runs",
  "5",
  "--seed",
  "3",
];
const FAILING_SMALL = ["--reference", "--fault", "deployments-total-off-by-one", "--check", "deployments.*", "--seed", "3"];
const GITHUB = { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: "" };
const LOOPS = 6;

describe("output through a pipe: every byte arrives, every time", () => {
  it(`list --json through a slow reader, ${LOOPS} runs: the same bytes as in-process`, async () => {
    const lines: string[] = [];
    await main(["list", "--json"], { out: (l) => lines.push(l) });
    const want = Buffer.from(lines.join("\n") + "\n");
    expect(want.length).toBeGreaterThan(65_536); // more than a pipe's buffer
    for (let i = 0; i < LOOPS; i++) {
      const r = await piped(["list", "--json"], "slow");
      expect(r.code).toBe(0);
      expect(r.stdout.length, `run ${i + 1}`).toBe(want.length);
      expect(r.stdout.equals(want)).toBe(true);
    }
  });

  it(`a failing run's console through a slow reader, ${LOOPS / 2} runs: the verdict, the annotations and the reports line arrive`, async () => {
    for (let i = 0; i < LOOPS / 2; i++) {
      const out = mkdtempSync(join(tmpdir(), "conformance-pipes-"));
      // report.json is written before the summary, the failures, the annotations and the reports line.
      const r = await piped([...FAILING, "--reporter", "console", "json", "--out", out], "slow", GITHUB, join(out, "report.json"));
      const text = r.stdout.toString();
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout.length).toBeGreaterThan(65_536);
      expect(text).toMatch(/\nconformance: FAILED; verified /);
      expect(text).toMatch(/\n::error title=/);
      expect(/\nreports: [^\n]*report\.json\n$/.test(text), `run ${i + 1} ended with ${JSON.stringify(text.slice(-80))}`).toBe(true);
    }
  });

  it(`a closed pipe ends output quietly, ${LOOPS / 2} runs of list and one failing run: no EPIPE stack, the command's own exit code`, async () => {
    for (let i = 0; i < LOOPS / 2; i++) {
      const list = await piped(["list", "--json"], "close");
      expect(list.stderr).toBe("");
      expect(list.code).toBe(0);
    }
    const failing = await piped(FAILING_SMALL, "close", GITHUB);
    expect(failing.code, failing.stderr).toBe(1);
    expect(failing.stderr).not.toMatch(/EPIPE|\n\s+at /);
  });
});
