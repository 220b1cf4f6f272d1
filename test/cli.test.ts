import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../bin/cli.js";
import { startReference, type RunningReference } from "../reference/server.js";

const run = async (...argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n"), errLines: err.filter(Boolean) };
};

const dir = mkdtempSync(join(tmpdir(), "conformance-cli-"));
let ref: RunningReference;
let config: string;

beforeAll(async () => {
  ref = await startReference();
  config = join(dir, "config.json");
  writeFileSync(config, JSON.stringify(ref.config()));
});
afterAll(() => ref.close());

describe("CLI: bad input gets one clear line and exit 2", () => {
  it("an unknown option", async () => {
    const r = await run("--no-such-option");
    expect(r.code).toBe(2);
    expect(r.errLines.length).toBe(1);
    expect(r.err).toMatch(/unknown option/);
  });

  it("a config that is not JSON", async () => {
    const f = join(dir, "bad.json");
    writeFileSync(f, '{\n  "runs": 5\n  "seed": 1\n}\n');
    const r = await run("--config", f);
    expect(r.code).toBe(2);
    expect(r.errLines).toHaveLength(1);
    expect(r.err).toMatch(/ is not valid JSON: line 3, column 3: \S/);
  });

  it("a config with an unknown key or a bad value", async () => {
    const f = join(dir, "unknown.json");
    writeFileSync(f, JSON.stringify({ baseUrl: "http://127.0.0.1:1", bogus: 1, timeoutMs: -3 }));
    const r = await run("--config", f);
    expect(r.code).toBe(2);
    expect(r.errLines).toHaveLength(1);
    expect(r.err).toMatch(/bogus/);
  });

  it("an unreachable server", async () => {
    const r = await run("--base-url", "http://127.0.0.1:9", "--token", "x");
    expect(r.code).toBe(2);
    expect(r.errLines).toHaveLength(1);
    expect(r.err).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9: connection refused/);
  });

  it("a rejected token, without showing it", async () => {
    const r = await run("--base-url", ref.url, "--token", "wrong-token-value");
    expect(r.code).toBe(2);
    expect(r.errLines).toHaveLength(1);
    expect(r.err).toMatch(/rejected the token from --token \(401/);
    expect(r.err + r.out).not.toContain("wrong-token-value");
  });

  it("no token at all", async () => {
    const saved = process.env.CONFORMANCE_TOKEN;
    delete process.env.CONFORMANCE_TOKEN;
    const r = await run("--base-url", ref.url);
    if (saved !== undefined) process.env.CONFORMANCE_TOKEN = saved;
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no token/);
  });

  it("a --check that matches nothing, a --group that does not exist", async () => {
    expect((await run("--reference", "--check", "nothing.like.this")).code).toBe(2);
    expect((await run("--reference", "--group", "nope")).code).toBe(2);
  });

  it("the built binary prints no stack trace", async () => {
    const bin = join(import.meta.dirname, "..", "dist", "cli", "conformance.js");
    const res = await promisify(execFile)(process.execPath, [bin, "--base-url", "http://127.0.0.1:9", "--token", "x"]).catch((e) => e);
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split("\n")).toHaveLength(1);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("CLI: runs and reports", () => {
  it("passes against the reference and writes valid report.json and junit.xml", async () => {
    const out = join(dir, "reports");
    const r = await run("--config", config, "--check", "deployments.*", "--reporter", "console", "json", "junit", "--out", out, "--seed", "7");
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/seed 7/);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.tool.name).toBe("platform-api-conformance");
    expect(report.seed).toBe(7);
    expect(report.summary.total).toBeGreaterThan(0);
    expect(report.summary.failed).toBe(0);
    for (const res of report.results)
      expect(Object.keys(res)).toEqual(expect.arrayContaining(["id", "group", "title", "spec", "level", "status", "message", "durationMs"]));
    const xml = readFileSync(join(out, "junit.xml"), "utf8");
    expect(xml).toMatch(/^<\?xml/);
    expect(xml).toContain('<testsuite name="deployments"');
    expect((xml.match(/<testcase /g) ?? []).length).toBe(report.summary.total);
    expect(JSON.stringify(report) + xml + r.out).not.toContain((ref.config() as any).token);
  });

  it("exits 1 on a MUST failure, with the failure explained", async () => {
    const r = await run("--reference", "--fault", "deployments-total-off-by-one", "--check", "deployments.*");
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/expected: /);
    expect(r.out).toMatch(/reproduce: curl /);
  });

  it("a SHOULD failure passes the run, and fails it under --strict", async () => {
    const args = ["--reference", "--fault", "minimums-not-enforced", "--check", "deployments.list.limit-zero-rejected"];
    const lenient = await run(...args);
    // Never called failed in a run that passes: a SHOULD finding, in the counts and in its story.
    expect(lenient.out).toMatch(/0 failed, 1 SHOULD finding/);
    expect(lenient.out).toMatch(/\nSHOULD finding: the request is rejected as a client error/);
    expect(lenient.out).not.toMatch(/\nfailed: /);
    expect(lenient.code).toBe(0);
    const strict = await run(...args, "--strict");
    expect(strict.out).toMatch(/1 failed, 0 blocked/);
    expect(strict.code).toBe(1);
  });

  it("skips write checks without --allow-writes, saying why", async () => {
    const out = join(dir, "skips");
    const r = await run("--config", config, "--reporter", "json", "--out", out);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    const skipped = report.results.filter((x: any) => x.status === "skipped");
    for (const s of skipped) expect(s.message.length).toBeGreaterThan(10);
    expect(r.code).toBe(0);
  });

  it("lists the catalogue", async () => {
    const r = await run("list", "--json");
    const list = JSON.parse(r.out);
    expect(list.length).toBeGreaterThan(0);
    expect(list[0]).toEqual(
      expect.objectContaining({
        id: expect.any(String),
        group: expect.any(String),
        level: expect.stringMatching(/MUST|SHOULD/),
        spec: expect.any(String),
        title: expect.any(String),
        variants: expect.any(Array),
      }),
    );
    // Variant coverage: the variants whose spec sections a check cites (docs/tolerance.md).
    expect(list.find((c: any) => c.id === "staging.enable.by-name").variants).toEqual(expect.arrayContaining(["env-control-plane", "branch-nullables"]));
    expect(list.find((c: any) => c.id === "audit.filter.user-email").variants).toEqual(["audit-columns-unnamed"]);
  });
});

describe("config.example.json", () => {
  it("is a valid config", async () => {
    const { validateConfig } = await import("../core/api/settings.js");
    const example = JSON.parse(readFileSync(join(import.meta.dirname, "..", "config.example.json"), "utf8"));
    expect(validateConfig(example)).toEqual([]);
  });
});
