import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../bin/cli.js";
import type { Report } from "../core/run/report.js";
import { startReference, type RunningReference } from "../reference/server.js";

/** Runs the CLI in-process and keeps what it printed. */
export async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n"), lines: out };
}

/**
 * One run whose reports have something of everything: passes, a MUST failure of a property (seed,
 * counterexample, shrunk requests), SHOULD findings, skips (no unremovable writes, no noAudit
 * token) and metadata JWTs in the exchanges, against a reference started here, so that its
 * tokens are known to look for in the output.
 */
export async function faultyRun(reporters: string[], extra: string[] = []) {
  const ref: RunningReference = await startReference({ faults: ["cursor-page-of-five-skips", "minimums-not-enforced"] });
  try {
    const dir = mkdtempSync(join(tmpdir(), "conformance-reports-"));
    const config = join(dir, "config.json");
    const tokens = { ...(ref.config().tokens as Record<string, string>) };
    delete tokens.noAudit;
    writeFileSync(config, JSON.stringify({ ...ref.config(), tokens, writes: true }));
    const run = await cli(
      "--config",
      config,
      "--check",
      "deployments.*",
      "pagination.*",
      "tokens.*",
      "audit.*",
      "deployment-update.merge.*",
      "--runs",
      "20",
      "--seed",
      "4",
      "--reporter",
      ...reporters,
      "--out",
      join(dir, "reports"),
      ...extra,
    );
    const secrets = [ref.config().token, ...Object.values(ref.config().tokens ?? {})].filter((t): t is string => typeof t === "string");
    const read = (name: string) => readFileSync(join(dir, "reports", name), "utf8");
    return { ...run, dir, secrets, read, report: () => JSON.parse(read("report.json")) as Report };
  } finally {
    await ref.close();
  }
}
