import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FailFast } from "../bin/fail-fast.js";
import { main } from "../bin/cli.js";
import { rateLimitOption } from "../bin/run-options.js";
import type { CheckResult } from "../core/run/result.js";
import { startReference, type RunningReference } from "../reference/server.js";

/** What people expect of a command line tool, as issue 30 listed them; each one as a user types it. */
const BIN = join(import.meta.dirname, "..", "dist", "cli", "conformance.js");
const dir = mkdtempSync(join(tmpdir(), "conformance-conventions-"));

const run = async (...argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err: err.join("\n") };
};
/** The built CLI in a child process (asynchronous: the reference answers from this one). */
const bin = (args: string[], cwd = dir) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    execFile(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, CONFORMANCE_TOKEN: "" } }, (e, stdout, stderr) =>
      resolve({ status: e ? (typeof e.code === "number" ? e.code : null) : 0, stdout, stderr }),
    ),
  );

let ref: RunningReference;
beforeAll(async () => {
  ref = await startReference();
});
afterAll(async () => {
  await ref.close();
});

describe("conventions of the command line", () => {
  it("comma-separated reporters, a level in any case, -H, a rate per minute, --exclude-check", async () => {
    const out = join(dir, "reports");
    const r = await run(
      "--reference",
      "--check",
      "deployments.list.*",
      "--exclude-check",
      "deployments.list.limit-*,deployments.list.offset-*",
      "--reporter",
      "junit,json",
      "--level",
      "MUST",
      "-H",
      "X-Tenant: a",
      "--rate-limit",
      "6000/m",
      "--out",
      out,
    );
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(out, "junit.xml")) && existsSync(join(out, "report.json"))).toBe(true);
    const ids = JSON.parse(readFileSync(join(out, "report.json"), "utf8")).results.map((x: CheckResult) => x.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.filter((id: string) => /^deployments\.list\.(limit|offset)-/.test(id))).toEqual([]);
    expect(rateLimitOption("100/m")).toBeCloseTo(100 / 60);
    expect(rateLimitOption("20/s")).toBe(20);
    expect((await run("--reporter", "junit,nope")).code).toBe(2);
  });

  it("--max-failures n stops after the n-th failing result; --fail-fast is 1", () => {
    const failed = (id: string) => ({ id, level: "MUST", status: "failed", message: "" }) as CheckResult;
    const two = new FailFast({ strict: false }, 2);
    two.observe(failed("a"));
    expect(two.shouldStop()).toBe(false);
    two.observe(failed("b"));
    expect(two.shouldStop()).toBe(true);
  });

  it("finds ./conformance.config.json on its own and says so", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "conformance-cwd-"));
    writeFileSync(join(cwd, "conformance.config.json"), JSON.stringify(ref.config()));
    const r = await bin(["--check", "deployments.list.schema"], cwd);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain("using ./conformance.config.json from the working folder");
  });

  it("list filters by group, check and level, as text or JSON, without variant lines unless --verbose", async () => {
    const text = await run("list", "--group", "deployments", "--level", "must");
    expect(text.code).toBe(0);
    expect(text.out.every((l) => /^deployments\./.test(l) || /^\s/.test(l))).toBe(true);
    expect(text.out.some((l) => /variants:/.test(l))).toBe(false);
    const json = JSON.parse((await run("list", "--check", "deployments.list.*", "--json")).out.join("\n"));
    expect(json.every((c: { id: string }) => c.id.startsWith("deployments.list."))).toBe(true);
    expect((await run("list", "--verbose")).out.some((l) => /variants:/.test(l))).toBe(true);
  });

  it("compare warns when the two reports name different servers", async () => {
    const saved = join(dir, "a");
    expect((await run("--reference", "--check", "deployments.list.schema", "--reporter", "json", "--out", saved)).code).toBe(0);
    const report = JSON.parse(readFileSync(join(saved, "report.json"), "utf8"));
    const other = join(dir, "other.json");
    writeFileSync(other, JSON.stringify({ ...report, target: { baseUrl: "https://elsewhere.example" } }));
    const r = await bin(["compare", join(saved, "report.json"), other]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^conformance: warning: the reports name different servers/);
    expect((await bin(["compare", join(saved, "report.json"), join(saved, "report.json")])).stderr).toBe("");
    // Two --reference runs listen on two ports, but name one server: the bundled reference (with its faults).
    const again = join(dir, "b");
    expect((await run("--reference", "--check", "deployments.list.schema", "--reporter", "json", "--out", again)).code).toBe(0);
    expect(JSON.parse(readFileSync(join(again, "report.json"), "utf8")).target.baseUrl).not.toBe(report.target.baseUrl);
    expect((await bin(["compare", join(saved, "report.json"), join(again, "report.json")])).stderr).toBe("");
    const faulty = join(dir, "faulty.json");
    writeFileSync(faulty, JSON.stringify({ ...report, target: { ...report.target, reference: { faults: ["deployments-total-off-by-one"] } } }));
    expect((await bin(["compare", join(saved, "report.json"), faulty])).stderr).toMatch(
      /different servers \(\S+: the bundled reference, \S+: the bundled reference with --fault deployments-total-off-by-one\)/,
    );
  });
});
