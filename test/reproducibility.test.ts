import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../core/api/paths.js";
import type { Report } from "../core/run/report.js";
import { runChecks } from "../core/run/runner.js";
import { Schemas } from "../core/api/schemas.js";
import { startReference } from "../reference/server.js";
import { catalogue } from "../suites/index.js";
import { OPERATIONS, type OperationName } from "../core/api/operations.js";
import { matchOperation } from "../core/api/match.js";
import { sharesOf } from "../core/run/schedule.js";
import type { Share } from "../core/model/needs.js";
import { settingsFor } from "./reference-run.js";
import { verdict } from "./compared-verdicts.js";

/** A request as the server sees it, without the host and port of the server that got it. */
function requestKey(e: { method: string; url: string; requestBody?: string }): string {
  const u = new URL(e.url);
  return `${e.method} ${u.pathname}${u.search} ${e.requestBody ?? ""}`;
}

/** A request with the ids the server assigned blurred: concurrent checks' creations interleave. */
const idless = (key: string) => key.replace(/\d+/g, "#");

/**
 * Every request of one run of the whole catalogue against a fresh reference, by the check that
 * sent it (fixture discovery, found before any check, under "(discovery)"; cleanup under its check).
 */
async function requestsOfARun(seed: number, concurrency = 1) {
  const ref = await startReference();
  const byCheck = new Map<string, string[]>();
  const written = new Map<string, Set<string>>();
  const madeBy = new Map<string, Set<string>>();
  try {
    const settings = settingsFor(ref, { seed, runs: 10, concurrency });
    const outcome = await runChecks(catalogue, settings, await Schemas.load(), {
      onExchange: (e, checkId = "(discovery)") => {
        byCheck.set(checkId, [...(byCheck.get(checkId) ?? []), requestKey(e)]);
        const matched = matchOperation(OPERATIONS, e.method, e.url);
        const dep = matched?.params.deploymentId;
        // The reference answers a create with the deployment, its id first: the check's own deployment from then on.
        const made = matched?.operation.name === "createDeployment" ? /"id"\s*:\s*"?(\d+)/.exec(e.responseExcerpt ?? "")?.[1] : undefined;
        if (made) madeBy.set(checkId, (madeBy.get(checkId) ?? new Set()).add(made));
        if (matched && e.method !== "GET" && (e.status ?? 500) < 300)
          written.set(checkId, (written.get(checkId) ?? new Set()).add(`${matched.operation.name} ${dep ?? ""}`));
      },
    });
    return {
      byCheck,
      written,
      madeBy,
      tokens: [settings.token, ...Object.values(settings.tokens)].filter((t): t is string => !!t),
      verdicts: outcome.results.map(verdict),
      leftovers: outcome.leftovers,
    };
  } finally {
    await ref.close();
  }
}

/**
 * The sequential run of seed 20260101, made once in this file: the first test compares it with a
 * second run of its own, the second test with a concurrent run (a full run at concurrency 1 is
 * the slowest a test makes; the same run twice proved nothing more than once).
 */
let sequential: ReturnType<typeof requestsOfARun> | undefined;
const sequentialRun = () => (sequential ??= requestsOfARun(20260101, 1));

/** The checks whose requests differ between two runs (each check's in any order: a check may send concurrently); a key of "" leaves a request out. */
function differing(a: Map<string, string[]>, b: Map<string, string[]>, key: (k: string) => string = (k) => k): string[] {
  const sorted = (xs: string[] | undefined) =>
    JSON.stringify(
      (xs ?? [])
        .map(key)
        .filter((k) => k !== "")
        .sort(),
    );
  return [...a.keys()].filter((id) => sorted(a.get(id)) !== sorted(b.get(id)));
}

describe("the same seed sends the same requests", () => {
  it("two runs of the catalogue with one seed, against two fresh references, send the same requests, and no token in a URL or body", async () => {
    const a = await sequentialRun();
    const b = await requestsOfARun(20260101);
    expect([...b.byCheck.keys()].sort()).toEqual([...a.byCheck.keys()].sort());
    expect(differing(a.byCheck, b.byCheck)).toEqual([]);
    const sent = [...a.byCheck.values()].flat().join("\n");
    expect(a.tokens.filter((t) => sent.includes(t))).toEqual([]);
  });

  // Issue 10 (test/concurrency.test.ts for runs with faults): the same two runs, the clean reference's whole catalogue.
  it("a concurrent run reports what a sequential one does, in the same order, and sends each check's writes of it, but for the ids the server assigned", async () => {
    const one = await sequentialRun();
    const eight = await requestsOfARun(20260101, 8);
    expect(eight.verdicts).toEqual(one.verdicts);
    expect(eight.leftovers).toEqual(one.leftovers);
    expect([...eight.byCheck.keys()].sort()).toEqual([...one.byCheck.keys()].sort());
    // Reads follow what other checks hold beside them: a folder tree walked level by level until
    // the check's folders are seen, a list walked again when an item seems absent (a position
    // cursor skips items deleted beside the walk). What a check writes does not.
    const writes = (k: string) => (k.startsWith("GET ") ? "" : idless(k));
    expect(differing(one.byCheck, eight.byCheck, writes)).toEqual([]);
  });
});

/**
 * The share an accepted write of these operations needs its check to declare (core/run/schedule.ts):
 * what it changes for every other check that reads or changes the same thing. A write left out of a
 * check's shares lets the checks beside it see it (a list walk meets a workbook appear; dev mode,
 * held per caller on one branch, moves off another check's branch), as intermittent failures on
 * servers that choose otherwise than the reference (dev-mode-per-caller; the blind servers). A write
 * to a deployment the check made disturbs no one, but dev mode's:
 * its scope is not shown, and a server may hold it per caller across deployments.
 */
const SHARE_OF_A_WRITE: Partial<Record<OperationName, Share>> = {
  startDevMode: "write:dev-mode",
  stopDevMode: "write:dev-mode",
  // A toggle shows in E2 and the branches list (their readers); toggles of the same flag keep apart by write:staging-flags.
  setStagingEnvironment: "add:environments",
  duplicateWorkbook: "add:workspace",
  upsertWorkbookBySlug: "add:workspace",
  bulkMoveWorkspaceItems: "add:workspace",
  bulkDeleteWorkspaceItems: "add:workspace",
  createFolder: "add:workspace",
  deleteFolder: "add:workspace",
  createBranch: "add:branches",
  deleteBranch: "add:branches",
  setEnvVars: "add:env-vars",
};

/** Whether a check's shares cover a write that needs `needed`: it runs alone, or declares the thing at that access or above. */
function covers(shares: Share[], needed: Share): boolean {
  if (shares.includes("exclusive")) return true;
  const [access, thing] = needed.split(":");
  const rank = { read: 0, add: 1, write: 2 } as Record<string, number>;
  return shares.some((s) => s.endsWith(`:${thing}`) && (rank[s.split(":")[0]] ?? -1) >= rank[access]);
}

describe("what a check writes, its shares declare", () => {
  it("every accepted write of a shared thing (dev mode, staging, the workspace, branches, env vars) is covered by its check's shares", async () => {
    const { written, madeBy } = await sequentialRun();
    const ownDeployment = (id: string, dep: string) => madeBy.get(id)?.has(dep) === true;
    const seen = new Set<string>();
    const undeclared = [...written].flatMap(([id, writes]) => {
      const check = catalogue.find((c) => c.id === id);
      if (!check) return [];
      return [...writes].flatMap((write) => {
        const [name, dep] = write.split(" ");
        const needed = SHARE_OF_A_WRITE[name as OperationName];
        if (!needed) return [];
        seen.add(name);
        if (covers(sharesOf(check), needed) || (needed !== "write:dev-mode" && ownDeployment(id, dep))) return [];
        return [`${id}: ${name} on deployment ${dep} needs ${needed}, declares ${JSON.stringify(sharesOf(check))}`];
      });
    });
    expect([...new Set(undeclared)]).toEqual([]);
    // The guard saw the writes it is about: a run that wrote none of them would pass it vacuously.
    expect(seen.size).toBeGreaterThanOrEqual(10);
  });
});

describe("conformance replay", () => {
  const CHECK = "pagination.cursor.any-page-size";
  const FAULT = "cursor-page-of-five-skips";
  let dir: string;
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(packageRoot, "dist", "cli", "conformance.js"), ...args], { cwd: packageRoot, encoding: "utf8" });
  const resultOf = (file: string) => (JSON.parse(readFileSync(file, "utf8")) as Report).results.find((r) => r.id === CHECK);

  beforeAll(() => {
    // The test drives the built CLI, as a user would. `npm test` builds it first; rebuilding here
    // would rewrite dist/ under the test files that run beside this one.
    if (!existsSync(join(packageRoot, "dist", "cli", "conformance.js")))
      throw new Error("dist/cli/conformance.js is missing: build first (npx tsc -p tsconfig.json; npm test does it)");
    dir = mkdtempSync(join(tmpdir(), "conformance-replay-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("re-runs a failed property from its saved report and fails again with the same shrunk counterexample", () => {
    const first = cli(
      "--reference",
      "--fault",
      FAULT,
      "--allow-writes",
      "--check",
      CHECK,
      "--seed",
      "42",
      "--runs",
      "25",
      "--reporter",
      "json",
      "--out",
      join(dir, "first"),
    );
    expect(first.status, first.stderr).toBe(1);
    const failed = resultOf(join(dir, "first", "report.json"));
    expect(failed?.status).toBe("failed");
    expect(failed?.property?.counterexample).toBeTruthy();

    const again = cli(
      "replay",
      join(dir, "first", "report.json"),
      CHECK,
      "--reference",
      "--fault",
      FAULT,
      "--allow-writes",
      "--reporter",
      "json",
      "--out",
      join(dir, "again"),
    );
    expect(again.status, again.stderr).toBe(1);
    const replayed = resultOf(join(dir, "again", "report.json"));
    expect(replayed?.status).toBe("failed");
    expect(replayed?.property?.counterexample).toBe(failed?.property?.counterexample);
    expect(replayed?.property?.shrunkExchanges.map(requestKey)).toEqual(failed?.property?.shrunkExchanges.map(requestKey));
    // The replay runs the recorded case, not a new search.
    expect(replayed?.property?.runs).toBe(1);
  });

  it("a replay that does not run its check (a write check without --allow-writes) says 'not run', never passed, and exits 2; --quiet keeps it short", () => {
    const WRITER = "upsert.create.absent-slug-creates";
    const saved = cli("--reference", "--allow-writes", "--check", WRITER, "--seed", "5", "--reporter", "json", "--out", join(dir, "writer"));
    expect(saved.status, saved.stderr).toBe(0);
    // --reference allows writes on its own (its state is thrown away): --read-only takes them back.
    const replay = cli("replay", join(dir, "writer", "report.json"), WRITER, "--reference", "--read-only");
    expect(replay.status).toBe(2);
    const lines = replay.stdout.trim().split("\n");
    expect(lines.at(-2)).toMatch(/^conformance: not run: .*--allow-writes/);
    expect(replay.stdout).not.toMatch(/conformance: passed/);
    const quiet = cli("replay", join(dir, "writer", "report.json"), WRITER, "--reference", "--allow-writes", "--quiet");
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stdout.trim().split("\n")).toEqual([
      expect.stringMatching(/^1 checks: 1 passed/),
      expect.stringMatching(/^conformance: passed; verified 1 of 1 MUST rules/),
      expect.stringMatching(/^reports: none written/),
    ]);
  });
});

describe("the re-run line, run as printed", () => {
  // The CLI in a child process, without blocking this one: the reference answers from here.
  const cliAsync = (args: string[], env: NodeJS.ProcessEnv) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [join(packageRoot, "dist", "cli", "conformance.js"), ...args], { cwd: packageRoot, env });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      child.on("close", (code) => resolve({ code, out }));
    });

  it("fails its check again with the opt-in the check needs: a deployment change against a server of the user's, not --reference", async () => {
    const CHECK = "deployment-update.version.listed-forms";
    const ref = await startReference({ faults: ["version-v-prefix-rejected"] });
    const dir = mkdtempSync(join(tmpdir(), "conformance-rerun-"));
    try {
      const { baseUrl, token, tokens, fixtures } = ref.config();
      const config = join(dir, "config.json");
      writeFileSync(config, JSON.stringify({ baseUrl, tokens, fixtures }));
      const env = { ...process.env, CONFORMANCE_TOKEN: String(token) };
      const first = await cliAsync(["--config", config, "--allow-writes", "--allow-deployment-changes", "--check", CHECK, "--seed", "5", "--runs", "25"], env);
      expect(first.code, first.out).toBe(1);
      const line = /^re-run alone: conformance (.*)$/m.exec(first.out)?.[1];
      expect(line, first.out).toContain("--allow-deployment-changes");
      const again = await cliAsync(["--config", config, ...line!.split(" ")], env);
      expect(again.code, again.out).toBe(1);
      expect(again.out).toMatch(/^1 checks: 0 passed, 1 failed/m);
    } finally {
      await ref.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
