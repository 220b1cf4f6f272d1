import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { packageRoot } from "../core/api/paths.js";
import { startReference } from "../reference/server.js";
import { startLoggingProxy } from "./logging-proxy.js";

/**
 * The plan printed before a run names the deployment the run then writes into: both read one
 * choice (core/check/fixtures.ts fixturesFor), made through the run's door. With the first deployment
 * emptied of workbooks, discovery chooses another; the plan must name that one, not the first listed.
 */
it("with deployment 1 emptied of workbooks, the plan names the deployment the run writes into", async () => {
  const ref = await startReference();
  for (const [id, item] of ref.app.store.items) if (String(item.deploymentId) === "1" && item.type === "WORKBOOK") ref.app.store.items.delete(id);
  const proxy = await startLoggingProxy(ref.url);
  const dir = mkdtempSync(join(tmpdir(), "conformance-plan-"));
  try {
    const { token, tokens } = ref.config() as { token: string; tokens: Record<string, string> };
    const config = join(dir, "config.json");
    // No fixture names a deployment: discovery chooses; the third is at its workbook limit, as the reference's config says.
    writeFileSync(config, JSON.stringify({ baseUrl: proxy.url, token, tokens, writes: true, runs: 5, seed: 7, fixtures: { workbookLimitDeploymentId: "3" } }), {
      mode: 0o600,
    });
    let stderr = "";
    await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [join(packageRoot, "dist", "cli", "conformance.js"), "--config", config, "--group", "upsert", "--reporter", "json", "--out", join(dir, "out")],
        { stdio: ["ignore", "ignore", "pipe"] },
      );
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      child.on("exit", resolve);
    });
    const planned = /create folders, workbooks and reports named \S+ in deployment (\S+),/.exec(stderr)?.[1];
    expect(planned, stderr).toBe("2");
    const writes = proxy.writes().filter((l) => /\/deployments\/[^/]+\/(workbooks|folders)/.test(l));
    expect(writes.length).toBeGreaterThan(0);
    // Into no other deployment the server lists (a made-up id that names none is a negative case's, and changes nothing).
    const listed = ["1", "2", "3"].filter((d) => d !== planned);
    expect(writes.filter((l) => listed.some((d) => l.includes(`/deployments/${d}/`)))).toEqual([]);
  } finally {
    await proxy.close();
    await ref.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
