import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../core/api/paths.js";
import type { Report } from "../core/run/report.js";
import { NOT_RUN_INTERRUPTED } from "../core/run/verdict.js";
import { tokenEnvVars } from "../core/api/settings.js";
import { caughtBy, faultNamed, faults } from "../reference/faults.js";
import { startReference, type RunningReference, type StartOptions } from "../reference/server.js";
import { snapshotOf, type StateSnapshot } from "../reference/state-snapshot.js";
import type { Store } from "../reference/store.js";
import { catalogue } from "../suites/index.js";

/**
 * The write side's guarantees, end to end through the built CLI against a reference server held
 * in this process (so that its store can be inspected): a run without --allow-writes changes
 * nothing; a run with it (clean, with faults, or interrupted) leaves nothing of its own behind
 * and puts back what it changed.
 */

const CLI = join(packageRoot, "dist", "cli", "conformance.js");
/** Every name a run gives starts with it (core/ledger/scratch.ts); a clone's "Copy of cf-…" holds it. */
const RUN_PREFIX = "cf-";
const RUN_TIMEOUT_MS = 150_000;
const writeChecks = new Set(catalogue.filter((c) => c.needs.includes("writes")).map((c) => c.id));

/** Faults that make write checks fail after changing something the run must put back: a folder cycle, a branch's flag. */
const ownFault = "bulk-move-into-descendant";
const otherGroupsFault =
  faults.find((f) => f.name === "staging-personal-branch-accepted") ??
  faults.find((f) => !f.name.startsWith("bulk-move-") && caughtBy(f).some((id) => writeChecks.has(id)));

interface Session {
  ref: RunningReference;
  dir: string;
  config: string;
  before: StateSnapshot;
}

let session: Session | undefined;

/** A reference server, its config in a private temp folder, and the state it starts from. */
async function open(opts: StartOptions = {}): Promise<Session> {
  const ref = await startReference(opts);
  const dir = mkdtempSync(join(tmpdir(), "conformance-safety-"));
  const config = join(dir, "config.json");
  // Few property runs and a fixed seed: these tests are about what a run leaves, not about depth.
  writeFileSync(config, JSON.stringify({ ...ref.config(), runs: 5, seed: 7 }), { mode: 0o600 });
  session = { ref, dir, config, before: snapshotOf(ref.app.store) };
  return session;
}

afterEach(async () => {
  if (!session) return;
  await session.ref.close();
  rmSync(session.dir, { recursive: true, force: true });
  session = undefined;
});

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npx tsc -p tsconfig.json; npm test does it)`);
});

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI; `onLine` sees each stdout line as it comes. Killed, and failed, past the timeout. */
function cli(args: string[], onLine: (line: string, child: ChildProcess) => void = () => {}): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  // Tokens come from the config only: a developer's own env must not redirect the run.
  for (const name of Object.values(tokenEnvVars)) delete env[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let pending = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the CLI did not exit within ${RUN_TIMEOUT_MS} ms\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`));
    }, RUN_TIMEOUT_MS);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const lines = (pending + chunk).split("\n");
      pending = lines.pop()!;
      for (const line of lines) onLine(line, child);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function reportOf(s: Session): Report {
  return JSON.parse(readFileSync(join(s.dir, "report.json"), "utf8"));
}

/** Workspace items the run named as its own and left in the store. */
function runItemsLeft(store: Store): string[] {
  return [...store.items.values()].filter((i) => i.name.includes(RUN_PREFIX)).map((i) => `${i.type} ${i.id} ${i.name}`);
}

/** Items as a restore leaves them: moving an item back is a change of its own, so updatedAt may move. */
function restorable(s: StateSnapshot): StateSnapshot {
  return { ...s, items: s.items.map(({ updatedAt, ...rest }) => rest) };
}

/** Nothing of the run left, nothing it changed left changed, nothing reported as left over. */
function expectPutBack(s: Session, report: Report): void {
  expect(report.leftovers).toEqual([]);
  expect(runItemsLeft(s.ref.app.store)).toEqual([]);
  const after = restorable(snapshotOf(s.ref.app.store));
  const before = restorable(s.before);
  expect(after.deployments).toEqual(before.deployments);
  expect(after.items).toEqual(before.items);
}

/** The checks that change a deployment's version, channel or settings: behind their own opt-in. */
const deploymentChecks = new Set(catalogue.filter((c) => c.needs.includes("deployment-changes")).map((c) => c.id));
/**
 * "A handful": the E6 examples move the deployment once per rule, the properties never on a server that keeps the rules.
 * The template-variable merge sends one value of each class of its input (plain, "", padded, non-ASCII: issue 29): 3 more.
 * E6 rule 2 over its domain (another channel, and the deployment's own from a version below its
 * latest: a setting-up update and the move): 2 more.
 * The hold read back (issue 30, the sealed Perl bug 13): flipped, flipped back, and a setting-up move to its channel's latest
 * where the deployment is not on it: up to 3 more.
 * The merge with each named field sent alone in turn (issue 30, the sealed Python bug 6): one update per field the settings
 * show beyond the first (up to five), and a null display default taken back as null, then given a value: up to 7 more.
 * The image followed across a version switch (E6 rule 3, round 20): the switch and its put-back, 2 more.
 * The template variables' numeric respellings ("1e1" after "10", "01" after "1", round 22): 4 more.
 * A version left by naming a channel alone as well (the sealed C++ bug 3, round 25): back on it, and the channel move, 2 more.
 */
const MAX_DEPLOYMENT_UPDATES = 35;

/** The count the console prints (core/api/deployment-updates.ts). */
function updatesOf(run: CliRun): { accepted: number; where: string[] } {
  const m = /^deployment updates \(PUT \/api\/v1\/deployments\/\{deploymentId\}\): (\d+) accepted(?: to deployment ([^,]+(?:, [^,]+)*?))?, \d+ refused$/m.exec(
    run.stdout,
  );
  if (!m) throw new Error(`no deployment update count in the output:\n${run.stdout.slice(-1500)}`);
  return { accepted: Number(m[1]), where: m[2] ? m[2].split(", ") : [] };
}

const settingsOf = (snapshot: StateSnapshot) => snapshot.deployments.map((d) => ({ id: d.id, settings: d.settings }));

const idOfResultLine = (line: string) => /^(?:PASS|FAIL)\s+\S+\s+(\S+)/.exec(line)?.[1];

describe("the run's safety guarantees", () => {
  it(
    "without --allow-writes, every write check is skipped with the reason and the server's state is untouched",
    async () => {
      const s = await open();
      const run = await cli(["--config", s.config, "--reporter", "json", "--out", s.dir]);
      expect([0, 1], run.stderr).toContain(run.code);
      const report = reportOf(s);
      expect(report.writes).toBe(false);
      expect(report.results.map((r) => r.id)).toEqual(catalogue.map((c) => c.id));
      const ranAnyway = report.results.filter((r) => writeChecks.has(r.id) && !(r.status === "skipped" && /writes not allowed/.test(r.message)));
      expect(ranAnyway.map((r) => `${r.id}: ${r.status} ${r.message}`)).toEqual([]);
      expect(snapshotOf(s.ref.app.store)).toEqual(s.before);
    },
    RUN_TIMEOUT_MS + 10_000,
  );

  it(
    "after a full run with --allow-writes, nothing of the run remains, every change is undone, and no deployment was updated",
    async () => {
      const s = await open();
      const run = await cli(["--config", s.config, "--allow-writes", "--reporter", "json", "console", "--out", s.dir]);
      expect([0, 1], run.stderr).toContain(run.code);
      const report = reportOf(s);
      expect(
        report.results.some((r) => writeChecks.has(r.id) && r.status === "passed"),
        "some write check ran",
      ).toBe(true);
      expectPutBack(s, report);
      // Not even changed and put back: the deployments' settings never moved.
      expect(updatesOf(run)).toMatchObject({ accepted: 0 });
      expect(settingsOf(snapshotOf(s.ref.app.store))).toEqual(settingsOf(s.before));
      const changing = report.results.filter((r) => deploymentChecks.has(r.id));
      expect(changing.length).toBeGreaterThan(0);
      expect(changing.filter((r) => !(r.status === "skipped" && /--allow-deployment-changes/.test(r.message))).map((r) => `${r.id}: ${r.status}`)).toEqual([]);
      expect(run.stderr).toMatch(/^writes: .*\n(.*\n)* {2}- no deployment's version, channel or settings/m);
    },
    RUN_TIMEOUT_MS + 10_000,
  );

  it(
    "with --allow-deployment-changes, a full run updates only the named deployment, a handful of times, and puts it back",
    async () => {
      const s = await open();
      const named = String((s.ref.config() as any).fixtures.mutableDeploymentId);
      const run = await cli(["--config", s.config, "--allow-writes", "--allow-deployment-changes", "--reporter", "json", "console", "--out", s.dir]);
      expect([0, 1], run.stderr).toContain(run.code);
      const report = reportOf(s);
      // Those that also add template variables wait for --allow-unremovable-writes, and those that make a deployment of their
      // own for --allow-deployment-lifecycle, which this run does not give.
      const removable = (id: string) => !catalogue.find((c) => c.id === id)!.needs.some((n) => n === "unremovable-writes" || n === "deployment-lifecycle");
      expect(
        report.results.filter((r) => deploymentChecks.has(r.id) && removable(r.id) && r.status !== "passed").map((r) => `${r.id}: ${r.status} ${r.message}`),
      ).toEqual([]);
      const updates = updatesOf(run);
      expect(updates.accepted).toBeGreaterThan(0);
      expect(updates.accepted).toBeLessThanOrEqual(MAX_DEPLOYMENT_UPDATES);
      expect(updates.where).toEqual([named]);
      expect(run.stderr).toContain(`change the version, release channel and settings of deployment ${named}`);
      expectPutBack(s, report);
    },
    RUN_TIMEOUT_MS + 10_000,
  );

  const broken = [ownFault, ...(otherGroupsFault ? [otherGroupsFault.name] : [])];
  it(
    `after a run whose write checks fail (faults ${broken.join(", ")}), nothing of the run remains and every change is undone`,
    async () => {
      const s = await open({ faults: broken });
      const run = await cli(["--config", s.config, "--allow-writes", "--reporter", "json", "--out", s.dir]);
      expect(run.code, run.stderr).toBe(1);
      const report = reportOf(s);
      for (const name of broken) {
        const caught = caughtBy(faultNamed(name)).filter((id) => writeChecks.has(id));
        expect(
          report.results.some((r) => caught.some((id) => id === r.id) && r.status === "failed"),
          `${name} made a write check fail`,
        ).toBe(true);
      }
      expectPutBack(s, report);
    },
    RUN_TIMEOUT_MS + 10_000,
  );

  it(
    "on SIGINT after the first write check, the run stops, says so, exits 130 and still cleans up",
    async () => {
      const s = await open();
      let interruptedAfter: string | undefined;
      // --verbose: a line per finished check, passes included.
      const run = await cli(["--config", s.config, "--allow-writes", "--verbose", "--reporter", "json", "console", "--out", s.dir], (line, child) => {
        const id = idOfResultLine(line);
        if (interruptedAfter || !id || !writeChecks.has(id)) return;
        interruptedAfter = id;
        child.kill("SIGINT");
      });
      expect(interruptedAfter, "a write check finished before the run ended").toBeDefined();
      expect(run.code, run.stderr).toBe(130);
      expect(run.stdout).toMatch(/^interrupted:/m);
      const report = reportOf(s);
      expect(report.interrupted).toBe(true);
      // Every selected check is accounted for: those the run did not get to are listed as not run.
      expect(report.results.length).toBe(catalogue.length);
      expect(report.results.filter((r) => r.status === "skipped" && r.message === NOT_RUN_INTERRUPTED).length).toBeGreaterThan(0);
      // The verdict line says interrupted, never FAILED; only the line naming the reports follows it.
      expect(run.stdout.trim().split("\n").slice(-2)[0]).toBe("conformance: interrupted");
      expect(run.stdout).not.toMatch(/conformance: FAILED/);
      expectPutBack(s, report);
    },
    RUN_TIMEOUT_MS + 10_000,
  );
});
