import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { catalogue } from "../suites/index.js";
import { HttpClient, NetworkError } from "../core/http.js";
import { packageRoot } from "../core/paths.js";
import { catalogueLine, ConsoleReporter } from "../core/reporters/console.js";
import { buildReport, type Report } from "../core/reporters/report.js";
import { writeJUnit } from "../core/reporters/junit.js";
import { credentials, exitCodeFor, redactorFor, runChecks } from "../core/runner.js";
import { Schemas } from "../core/schemas.js";
import { selectChecks } from "../core/select.js";
import { DeploymentUpdateCounter } from "../core/deployment-updates.js";
import { writePlan } from "../core/write-plan.js";
import { checkBaseUrl, type ConfigFile, readConfigFile, type RunSettings, tokenEnvVars, UsageError } from "../core/settings.js";

const pkg = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { name: string; version: string };
const REPORTERS = ["console", "junit", "json"] as const;

const integer = (name: string, min: number) => (v: string) => {
  if (!/^-?\d+$/.test(v) || Number(v) < min) throw new InvalidArgumentError(`${name} must be an integer >= ${min}`);
  return Number(v);
};

export interface RunCliOptions {
  baseUrl?: string;
  token?: string;
  config?: string;
  reference?: boolean;
  group?: string[];
  check?: string[];
  allowWrites?: boolean;
  allowUnremovableWrites?: boolean;
  allowDeploymentChanges?: boolean;
  runs?: number;
  seed?: number;
  reporter: string[];
  out: string;
  strict?: boolean;
  timeout?: number;
  fault?: string[];
}

/** Runs the CLI; returns the exit code instead of exiting, so that tests can call it. */
export async function main(argv: string[], io: { out?: (l: string) => void; err?: (l: string) => void } = {}): Promise<number> {
  const out = io.out ?? ((l: string) => process.stdout.write(l + "\n"));
  const err = io.err ?? ((l: string) => process.stderr.write(l + "\n"));
  let code = 0;
  const program = new Command()
    .name("conformance")
    .description("Conformance suite for the Analytics Platform Management API")
    .version(pkg.version)
    .exitOverride()
    // Options of the run command must not swallow a subcommand's own (`reference --fault X`).
    .enablePositionalOptions()
    .configureOutput({ writeOut: (s) => out(s.trimEnd()), writeErr: (s) => err(s.trimEnd()) })
    .showSuggestionAfterError(true);

  program
    .option("--base-url <url>", "server under test (or baseUrl in the config)")
    .option("--token <token>", `API key (default: env ${tokenEnvVars.primary})`)
    .option("--config <file>", "JSON config, validated against schemas/config.schema.json")
    .option("--reference", "start the bundled reference server on a free loopback port, run against it, stop it")
    .addOption(new Option("--fault <names...>", "with --reference: break these rules in the reference server").hideHelp())
    .option("--group <names...>", "run only these groups")
    .option("--check <ids...>", "run only these checks (globs on ids, e.g. 'workbooks.*')")
    .option("--allow-writes", "also run checks that create or change data")
    .option("--allow-unremovable-writes", "with --allow-writes: also create data the API cannot delete (env or template variables)")
    .option("--allow-deployment-changes", "with --allow-writes: also change a deployment's version, channel and settings (only fixtures.mutableDeploymentId; put back)")
    .option("--runs <n>", "runs per property", integer("--runs", 1))
    .option("--seed <n>", "seed of the properties (always printed)", integer("--seed", 0))
    .addOption(new Option("--reporter <names...>", "reporters").choices([...REPORTERS]).default(["console"]))
    .option("--out <dir>", "report folder", "reports")
    .option("--strict", "SHOULD failures also fail the run")
    .option("--timeout <ms>", "per request", integer("--timeout", 1))
    .action(async (opts: RunCliOptions) => {
      code = await runCommand(opts, out);
    });

  program
    .command("list")
    .description("the catalogue: id, group, level, spec rule, title")
    .option("--json", "as JSON")
    .action((opts: { json?: boolean }) => {
      if (opts.json) out(JSON.stringify(catalogue.map(({ id, group, level, spec, title, needs, kind }) => ({ id, group, level, spec, title, needs, kind })), null, 2));
      else for (const c of catalogue) out(catalogueLine(c));
    });

  program
    .command("replay")
    .description("re-run one check of a saved report with its seed (a property: its shrunk counterexample)")
    .argument("<report>", "a report.json written by --reporter json")
    .argument("<check>", "the id of the check to re-run")
    .option("--base-url <url>", "server under test (default: the report's)")
    .option("--token <token>", `API key (default: env ${tokenEnvVars.primary})`)
    .option("--config <file>", "JSON config")
    .option("--reference", "against a fresh bundled reference server")
    .addOption(new Option("--fault <names...>").hideHelp())
    .option("--allow-writes", "needed again if the check writes")
    .option("--allow-deployment-changes", "needed again if the check changes a deployment")
    .addOption(new Option("--reporter <names...>", "reporters").choices([...REPORTERS]).default(["console"]))
    .option("--out <dir>", "report folder", "reports")
    .action(async (reportFile: string, checkId: string, opts: RunCliOptions) => {
      const saved = readReport(reportFile);
      const result = saved.results.find((r) => r.id === checkId);
      if (!result) throw new UsageError(`${reportFile} has no result for ${checkId}`);
      const baseUrl = opts.baseUrl ?? (opts.reference || opts.config ? undefined : saved.target.baseUrl);
      code = await runCommand({ ...opts, baseUrl, check: [checkId], seed: saved.seed, runs: saved.runs }, out, result.property ? { checkId, path: result.property.path } : undefined);
    });

  program
    .command("reference")
    .description("serve the reference server until interrupted")
    .option("--host <host>", "address to bind", "127.0.0.1")
    .option("--port <n>", "port (0: a free one)", integer("--port", 0), 0)
    .option("--fault <names...>", "break these rules (see --list-faults)")
    .option("--variant <names...>", "answer in these documented variant shapes")
    .option("--list-faults", "list the faults and exit")
    .option("--write-config <file>", "write a config (baseUrl, tokens, fixtures) for --config")
    .action(async (opts) => {
      code = await referenceCommand(opts, out);
    });

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof UsageError) {
      err(`conformance: ${e.message}`);
      return 2;
    }
    throw e;
  }
  return code;
}

function readReport(file: string): Report {
  try {
    const r = JSON.parse(readFileSync(file, "utf8")) as Report;
    if (!Array.isArray(r.results) || typeof r.seed !== "number") throw new Error("not a conformance report");
    return r;
  } catch (e) {
    throw new UsageError(`cannot read report ${file}: ${(e as Error).message}`);
  }
}

async function runCommand(opts: RunCliOptions, out: (l: string) => void, replay?: RunSettings["replay"]): Promise<number> {
  if (opts.reference && opts.baseUrl) throw new UsageError("--reference and --base-url exclude each other");
  if (opts.fault && !opts.reference) throw new UsageError("--fault needs --reference");
  const file: ConfigFile = opts.config ? readConfigFile(resolve(opts.config)) : {};
  const checks = selectChecks(catalogue, opts.group, opts.check);

  let reference: { close(): Promise<void>; config(): Record<string, any> } | undefined;
  if (opts.reference) {
    const { startReference } = await import("../reference/server.js");
    reference = await startReference({ faults: opts.fault ?? [] }).catch((e: Error) => {
      throw new UsageError(e.message);
    });
  }
  const stop = { requested: false };
  const onSignal = () => {
    if (stop.requested) process.exit(130);
    stop.requested = true;
    process.stderr.write("\nconformance: interrupted; finishing the current check and cleaning up (again to abort)\n");
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const settings = { ...settingsFrom(opts, file, reference?.config()), replay };
    const schemas = await Schemas.load();
    await preflight(settings);
    for (const line of await writePlan(checks, settings)) process.stderr.write(line + "\n");
    const updates = new DeploymentUpdateCounter();
    const reporters = new Set(opts.reporter);
    const console = reporters.has("console") ? new ConsoleReporter(out) : undefined;
    console?.start(settings.seed, settings.baseUrl, checks.length);
    const outcome = await runChecks(checks, settings, schemas, { onResult: (r) => console?.result(r), shouldStop: () => stop.requested, onExchange: updates.observe });
    const report = buildReport(outcome, { name: pkg.name, version: pkg.version, baseUrl: settings.baseUrl, seed: settings.seed, runs: settings.runs, writes: settings.writes });
    const exitCode = outcome.interrupted ? 130 : exitCodeFor(report.results, settings.strict);
    writeReports(report, reporters, opts.out);
    if (console) out(updates.line());
    console?.finish(report, exitCode);
    return exitCode;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await reference?.close();
  }
}

function settingsFrom(opts: RunCliOptions, file: ConfigFile, fromReference?: Record<string, any>): RunSettings {
  const base = fromReference ?? {};
  const token = opts.token ?? process.env[tokenEnvVars.primary] ?? file.token ?? base.token;
  if (!token) throw new UsageError(`no token: pass --token, set ${tokenEnvVars.primary}, or put token in the config`);
  const tokens: RunSettings["tokens"] = { ...base.tokens, ...file.tokens };
  for (const role of ["readOnly", "noAudit", "creator"] as const) tokens[role] = process.env[tokenEnvVars[role]] ?? tokens[role];
  return {
    baseUrl: checkBaseUrl(opts.baseUrl ?? file.baseUrl ?? base.baseUrl),
    token,
    tokens,
    writes: Boolean(opts.allowWrites ?? file.writes ?? false),
    // The bundled reference is thrown away after the run: nothing it holds outlives it.
    unremovableWrites: Boolean(opts.allowUnremovableWrites || opts.reference),
    deploymentChanges: Boolean(opts.allowDeploymentChanges ?? file.deploymentChanges ?? opts.reference),
    timeoutMs: opts.timeout ?? file.timeoutMs ?? 10_000,
    runs: opts.runs ?? file.runs ?? 100,
    seed: opts.seed ?? file.seed ?? Math.floor(Math.random() * 2 ** 31),
    strict: Boolean(opts.strict ?? file.strict ?? false),
    fixtures: { ...base.fixtures, ...file.fixtures },
  };
}

/** Exit 2 before any check when the server cannot be reached or rejects the token. */
async function preflight(settings: RunSettings): Promise<void> {
  const client = new HttpClient({ baseUrl: settings.baseUrl, timeoutMs: settings.timeoutMs, redactor: redactorFor(settings), credential: credentials(settings).primary });
  try {
    const res = await client.send({ method: "GET", path: "/api/v1/deployments", query: { limit: 1 } });
    if (res.status === 401 || res.status === 403) throw new UsageError(`the server rejected the token (${res.status} on GET /api/v1/deployments)`);
  } catch (e) {
    if (e instanceof NetworkError) throw new UsageError(`cannot reach ${settings.baseUrl}: ${e.exchange.error}`);
    throw e;
  } finally {
    await client.close();
  }
}

function writeReports(report: Report, reporters: Set<string>, dir: string): void {
  if (!reporters.has("json") && !reporters.has("junit")) return;
  mkdirSync(dir, { recursive: true });
  if (reporters.has("json")) writeFileSync(join(dir, "report.json"), JSON.stringify(report, null, 2) + "\n");
  if (reporters.has("junit")) writeJUnit(report, join(dir, "junit.xml"));
}

async function referenceCommand(opts: { host: string; port: number; fault?: string[]; variant?: string[]; listFaults?: boolean; writeConfig?: string }, out: (l: string) => void): Promise<number> {
  const { startReference } = await import("../reference/server.js");
  const { faults } = await import("../reference/faults.js");
  if (opts.listFaults) {
    for (const f of faults) out(`${f.name.padEnd(40)} ${f.breaks.padEnd(20)} ${f.description}`);
    return 0;
  }
  const ref = await startReference({ host: opts.host, port: opts.port, faults: opts.fault, variants: opts.variant }).catch((e: Error) => {
    throw new UsageError(e.message);
  });
  if (opts.writeConfig) {
    writeFileSync(opts.writeConfig, JSON.stringify(ref.config(), null, 2) + "\n", { mode: 0o600 });
    out(`config written to ${opts.writeConfig}`);
  }
  out(`reference server listening on ${ref.url}${opts.fault?.length ? ` with faults: ${opts.fault.join(", ")}` : ""}`);
  if (!opts.writeConfig) out(`token: pass --write-config <file> to get the tokens`);
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
  await ref.close();
  return 0;
}

