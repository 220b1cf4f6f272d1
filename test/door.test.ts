import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../core/api/paths.js";
import { startReference } from "../reference/server.js";
import { startIndependentServer as startFirst } from "./independent-server/server.js";
import { startIndependentServer as startSecond } from "./independent-server-2/server.js";
import { startIndependentServer as startThird } from "./independent-server-3/server.js";
import { startLoggingProxy } from "./logging-proxy.js";
import { startManyOperations } from "./many-operations-server.js";

/**
 * One door (core/run/door.ts): every request of every phase leaves through one transport object,
 * which keeps the run's promises and records what it sends. Counted at a logging proxy in front of
 * each server, never in the tool's own HAR.
 */

const ROOT = packageRoot;
const CLI = join(ROOT, "dist", "cli", "conformance.js");
const RUN_TIMEOUT_MS = 240_000;

/** The modules allowed to open a connection: the door's own. */
const DOOR_MODULES = new Set(["core/transport/http.ts"]);

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => join(e.parentPath, e.name).slice(ROOT.length + 1));
}

/** What in a module's text opens a connection of its own: an undici or node:http(s) client, or the global fetch. */
function connectionsOpened(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*import\s+(type\s+)?[^;]*?from\s+["']([^"']+)["']/gms))
    if (!m[1] && /^(undici|node:https?|https?|node:http2|http2|node:net|net|node:tls|tls)$/.test(m[2])) found.push(`imports ${m[2]}`);
  for (const m of text.matchAll(/(?:await\s+)?import\(\s*["'](undici|node:https?|https?)["']\s*\)/g)) found.push(`imports ${m[1]}`);
  for (const m of text.matchAll(/(^|[^.\w$])(fetch|globalThis\.fetch)\s*\(/g)) found.push(`calls ${m[2]}`);
  if (/new\s+HttpClient\s*\(/.test(text)) found.push("opens an HttpClient of its own (core/run/door.ts opens the run's one)");
  return found;
}

describe("one door", () => {
  it("no module of bin/, core/ or suites/ outside the door opens a connection", () => {
    const offenders = ["bin", "core", "suites"]
      .flatMap(sources)
      .filter((f) => !DOOR_MODULES.has(f) && f !== "core/run/door.ts")
      .flatMap((f) => connectionsOpened(readFileSync(join(ROOT, f), "utf8")).map((what) => `${f} ${what}`));
    expect(offenders).toEqual([]);
    // The scan itself finds what it must.
    expect(connectionsOpened('import { request } from "undici";\nconst r = await fetch(url);\nnew HttpClient({})')).toHaveLength(3);
    expect(connectionsOpened('import type { Dispatcher } from "undici";\napi.fetch(x);')).toEqual([]);
  });

  type Started = { url: string; token: string; config?: Record<string, unknown>; close(): Promise<void> };
  const servers: [string, () => Promise<Started>][] = [
    [
      "the reference",
      async () => {
        const ref = await startReference();
        return { url: ref.url, token: (ref.config() as { token: string }).token, config: ref.config(), close: () => ref.close() };
      },
    ],
    ["independent-server", startFirst],
    ["independent-server-2", startSecond],
    ["independent-server-3", startThird],
    ["a server documenting 64 operations beyond the spec's", startManyOperations],
  ];

  for (const [name, start] of servers)
    it(
      `a read-only run against ${name}: only GET, HEAD and OPTIONS reach the server, and the HAR lists every request it saw`,
      async () => {
        const server = await start();
        const proxy = await startLoggingProxy(server.url);
        const dir = mkdtempSync(join(tmpdir(), "conformance-door-"));
        try {
          const config = join(dir, "config.json");
          writeFileSync(config, JSON.stringify({ ...(server.config ?? { token: server.token }), baseUrl: proxy.url, writes: false, runs: 5, seed: 7 }), {
            mode: 0o600,
          });
          const code = await new Promise<number | null>((resolve) => {
            const child = spawn(process.execPath, [CLI, "--config", config, "--read-only", "--reporter", "har", "json", "--out", join(dir, "out")], {
              stdio: "ignore",
            });
            child.on("exit", resolve);
          });
          expect(code === 0 || code === 1, `exit ${code}`).toBe(true);
          expect(proxy.writes()).toEqual([]);
          const har = readdirSync(join(dir, "out")).find((f) => f.endsWith(".har"));
          const entries = JSON.parse(readFileSync(join(dir, "out", har!), "utf8")).log.entries as { request: { method: string } }[];
          // The figures the closing note states, per server.
          console.log(
            `${name}: ${proxy.lines.length} requests at the proxy, ${proxy.writes().length} other than GET/HEAD/OPTIONS; ${entries.length} HAR entries`,
          );
          expect(entries.length).toBe(proxy.lines.length);
          const report = JSON.parse(readFileSync(join(dir, "out", "report.json"), "utf8"));
          expect(report.gate.refused).toBeUndefined();
        } finally {
          await proxy.close();
          await server.close();
          rmSync(dir, { recursive: true, force: true });
        }
      },
      RUN_TIMEOUT_MS,
    );
});
