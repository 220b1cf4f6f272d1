import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../bin/cli.js";
import { startReference, type RunningReference } from "../reference/server.js";
import { startChaos } from "./chaos-server.js";

const BIN = join(import.meta.dirname, "..", "dist", "cli", "conformance.js");
const dir = mkdtempSync(join(tmpdir(), "conformance-robust-"));

const run = async (...argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n"), errLines: err.filter(Boolean) };
};

/** One clear line on stderr, exit 2, no stack trace. */
const refusedWith = (r: Awaited<ReturnType<typeof run>>, pattern: RegExp) => {
  expect(r.code, r.err + r.out).toBe(2);
  expect(r.errLines).toHaveLength(1);
  expect(r.err).toMatch(pattern);
  expect(r.err).not.toMatch(/\n\s+at /);
};

/** A server that answers every request the same way. */
const serving = async (handler: RequestListener) => {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
};
const servers: Server[] = [];

/** The built CLI as a user runs it; resolves with its exit code and output. */
const spawnCli = (args: string[], onStdout?: (text: string, child: ReturnType<typeof spawn>) => void) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += c;
      onStdout?.(stdout, child);
    });
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });

let ref: RunningReference;
let config: string;
beforeAll(async () => {
  ref = await startReference();
  config = join(dir, "config.json");
  writeFileSync(config, JSON.stringify(ref.config()));
});
afterAll(async () => {
  for (const s of servers) s.closeAllConnections(), s.close();
  await ref.close();
});

describe("--out is checked before the run", () => {
  it("a folder that cannot be made under /proc (Node's recursive mkdir would loop forever there)", async () => {
    refusedWith(
      await run("--config", config, "--reporter", "json", "--out", "/proc/conformance-x"),
      /^conformance: --out \/proc\/conformance-x: cannot write reports there \(ENOENT\)$/,
    );
  });

  it("even where only the console reports: an --out named is refused at once, before any check", async () => {
    refusedWith(
      await run("--config", config, "--reporter", "console", "--out", "/proc/conformance-x"),
      /^conformance: --out \/proc\/conformance-x: cannot write reports there \(ENOENT\)$/,
    );
  });

  it("a path under a file", async () => {
    refusedWith(
      await run("--config", config, "--reporter", "junit", "--out", "/etc/passwd/x"),
      /--out \/etc\/passwd\/x: cannot write reports there \(ENOTDIR\)/,
    );
  });

  it("is created, nested, when it can be", async () => {
    const out = join(dir, "a", "b", "c");
    const r = await run("--config", config, "--check", "deployments.list.schema", "--reporter", "json", "--out", out);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(readFileSync(join(out, "report.json"), "utf8")).summary.total).toBe(1);
  });
});

describe("preflight", () => {
  it("tries every configured token: a rejected extra one is named with where it came from (never shown), not charged to the server", async () => {
    const own = ref.config() as { tokens: Record<string, string> };
    const bad = join(dir, "bad-readonly.json");
    writeFileSync(bad, JSON.stringify({ ...own, tokens: { ...own.tokens, readOnly: "not-the-read-only-token-value" } }));
    const r = await run("--config", bad);
    refusedWith(
      r,
      new RegExp(
        `^conformance: the server rejected the readOnly token from tokens\\.readOnly in ${bad.replace(/[.\\/]/g, "\\$&")} \\(401 on GET \\/api\\/v1\\/deployments\\)$`,
      ),
    );
    expect(r.err + r.out).not.toContain("not-the-read-only-token-value");
  });

  it("a token left in the environment does not beat the config the run names; without one in the config, the message names the variable", async () => {
    process.env.CONFORMANCE_TOKEN = "exported-for-another-tenant";
    try {
      const r = await run("--config", config, "--check", "deployments.list.schema");
      expect(r.code, r.err).toBe(0);
      const { token: _, ...noToken } = ref.config() as Record<string, unknown>;
      const bare = join(dir, "no-token.json");
      writeFileSync(bare, JSON.stringify(noToken));
      refusedWith(await run("--config", bare), /^conformance: the server rejected the token from CONFORMANCE_TOKEN \(401 on GET \/api\/v1\/deployments\)$/);
    } finally {
      delete process.env.CONFORMANCE_TOKEN;
    }
  });

  it("a host that answers 404 everywhere is not this API", async () => {
    const s = await serving((_, res) => res.writeHead(404, { "content-type": "application/json" }).end('{"message":"Not Found"}'));
    servers.push(s.server);
    refusedWith(
      await run("--base-url", s.url, "--token", "t"),
      /does not answer like the Analytics Platform Management API: GET \/api\/v1\/deployments answered 404, and GET \/api\/v1\/spec serves no OpenAPI document/,
    );
  });

  it("a web app that answers HTML everywhere is not this API", async () => {
    const s = await serving((_, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><html></html>"));
    servers.push(s.server);
    refusedWith(await run("--base-url", s.url, "--token", "t"), /GET \/api\/v1\/deployments answered 200 with HTML, not JSON/);
  });

  it("a base URL that redirects says where to", async () => {
    const s = await serving((req, res) => res.writeHead(301, { location: `https://elsewhere.example${req.url}` }).end());
    servers.push(s.server);
    refusedWith(
      await run("--base-url", s.url, "--token", "t"),
      /answered 301, a redirect to https:\/\/elsewhere\.example\/api\/v1\/deployments\?limit=1: point --base-url/,
    );
  });

  it("a server of this API whose E1 alone is broken is judged, not refused", async () => {
    const chaos = await startChaos([{ method: "GET", path: /^\/api\/v1\/deployments$/, mode: "5xx" }]);
    try {
      const c = join(dir, "chaos.json");
      writeFileSync(c, JSON.stringify({ ...ref.config(), ...chaos.ref.config(), baseUrl: chaos.url }));
      const r = await run("--config", c, "--check", "deployments.list.schema");
      expect(r.code, r.err).toBe(1);
      expect(r.out).toMatch(/FAIL MUST\s+deployments\.list\.schema/);
    } finally {
      await chaos.close();
    }
  });
});

describe("the built CLI in odd environments", () => {
  it("a closed pipe (| head -1) ends output quietly: no EPIPE stack, the run's own exit code", async () => {
    const r = await spawnCli(["--reference", "--read-only", "--check", "deployments.*", "workbooks.*", "auth.*"], (_, child) => child.stdout?.destroy());
    // The plan line alone (core/run/write-plan.ts): nothing else, no EPIPE stack.
    expect(r.stderr).toMatch(/^read-only: this run sends GET only [^\n]*\n$/);
    expect(r.code).toBe(0);
  });

  it("SIGINT stops the run: the rest listed as not run, report says interrupted, last line says so, exit 130", async () => {
    const out = join(dir, "interrupted");
    let sent = false;
    // --verbose: a line per check, passes included, so that the signal comes once the first check is done.
    const r = await spawnCli(["--reference", "--allow-writes", "--verbose", "--reporter", "console", "json", "--out", out], (text, child) => {
      if (!sent && /\n(PASS|FAIL|SKIP)/.test(text)) {
        sent = true;
        child.kill("SIGINT");
      }
    });
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/interrupted; stopping the running check and cleaning up/);
    // The verdict line says interrupted, never FAILED; only the line naming the reports follows it.
    const lines = r.stdout.trim().split("\n");
    expect(lines.slice(-2)).toEqual(["conformance: interrupted", `reports: ${join(out, "report.json")}`]);
    expect(r.stdout).not.toMatch(/conformance: FAILED/);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.interrupted).toBe(true);
    const notRun = report.results.filter((x: any) => x.status === "skipped" && x.message === "not run: the run was interrupted");
    expect(notRun.length).toBeGreaterThan(100);
    expect(report.results.length).toBe(JSON.parse((await run("list", "--json")).out).length);
    expect(report.leftovers).toEqual([]);
  });

  it("a served reference stops on SIGHUP and SIGTERM, and says how to stop it", async () => {
    for (const signal of ["SIGHUP", "SIGTERM"] as const) {
      let sent = false;
      const r = await spawnCli(["reference"], (text, child) => {
        if (!sent && /listening on/.test(text)) sent = child.kill(signal);
      });
      expect(r.code, `${signal}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(/\(pid \d+: stop it with kill \d+\)/);
    }
  });
});
