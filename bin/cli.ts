import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { resolve } from "node:path";
import { parseShard } from "../core/run/shard.js";
import { unknownCommandMessage } from "./commands/help.js";
import { type ConfigFile, readConfigFile, tokenEnvVars, UsageError } from "../core/api/settings.js";
import { checkRunOptions, type SettingsOptions, settingsFrom } from "./run-settings.js";
import { collect, explicitOptions, type LEVELS, levelOf, rateLimitOption, selectLevel } from "./run-options.js";
import { configOf, globsOf, integer, MAX_FAILURES, MERGE_REPORTERS, namesOf, percent, pkg, REPORTERS, type RunCliOptions } from "./cli-shared.js";

const MERGE_DEFAULT = ["json"];
import { runCommand } from "./commands/run.js";
import { referenceCommand } from "./commands/reference.js";

/** Runs the CLI; returns the exit code instead of exiting, so that tests can call it. */
export async function main(argv: string[], io: { out?: (l: string) => void; err?: (l: string) => void; progress?: (l: string) => void } = {}): Promise<number> {
  const out = io.out ?? ((l: string) => process.stdout.write(l + "\n"));
  // A progress line rewritten in place on a terminal; CI logs get plain lines.
  const progress = io.progress ?? (!io.out && process.stdout.isTTY && !process.env.CI ? (l: string) => process.stdout.write(`\r\x1b[K${l}`) : undefined);
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
    .showSuggestionAfterError(true)
    .helpCommand(true);

  program
    .option("--base-url <url>", "server under test (else env CONFORMANCE_BASE_URL, else baseUrl in the config)")
    .option("--token <token>", `API key (default: env ${tokenEnvVars.primary})`)
    .option("--token-file <file>", "read the API key from the first line of this file")
    .option("-H, --header <'Name: value'>", "send this header on every request (repeatable; secret-looking values are never printed)", collect)
    .option("--config <file>", "JSON config, validated against schemas/config.schema.json (default: ./conformance.config.json when there is one)")
    .option(
      "--reference",
      "start the bundled reference server on a free loopback port, run everything against it (writes included: its state is thrown away), stop it",
    )
    .option("--read-only", "run no check that creates or changes data (with --reference, or over writes in the config)")
    .option("--fault <names...>", "with --reference, for demos: break these rules in the reference server (conformance reference --list-faults)")
    .option("--group <names...>", "run only these groups (or comma-separated)", globsOf)
    .option("--check <ids...>", "run only these checks (globs on ids, e.g. 'workbooks.*'; or comma-separated)", globsOf)
    .option("--exclude-check <ids...>", "run none of these checks (globs on ids; or comma-separated)", globsOf)
    .option("--level <level>", "run only checks of this level and above: must (only MUST checks) or should (all); any case", levelOf)
    .option("--fail-fast", "start no further check after the first failure (what runs is finished and cleaned up)")
    .option(`${MAX_FAILURES} <n>`, "start no further check after n failures (--fail-fast is 1)", integer(MAX_FAILURES, 1))
    .option("--allow-writes", "also run checks that create or change data")
    .option("--allow-unremovable-writes", "with --allow-writes: also create data the API cannot delete (env or template variables)")
    .option(
      "--allow-deployment-changes",
      "with --allow-writes: also change a deployment's version, channel and settings (only fixtures.mutableDeploymentId; put back)",
    )
    .option(
      "--allow-admin-writes",
      "with --allow-writes: also create and remove users, groups, user attributes, integrations and embed tenants, and change tenant settings (put back)",
    )
    .option(
      "--allow-deployment-lifecycle",
      "with --allow-writes: also create a deployment, drive its setup wizard, and delete it (only the one the run created, once a read-back shows it)",
    )
    .option(
      "--allow-git-operations",
      "with --allow-writes and --allow-deployment-lifecycle: in a deployment the run creates (and deletes), also commit, pull and merge branches of its own (one into the default branch), and connect it to a repository the tenant's GitHub lists",
    )
    .option(
      "--allow-unnamed-operations",
      "with --allow-writes: also send each write (POST, PUT, PATCH) of the server's document that the spec does not name one valid request, on objects the run discovered: what it does is not known to the tool",
    )
    .option("--min-coverage <percent>", "fail the run when fewer of the served document's operations were exercised", percent("--min-coverage"))
    .option(
      "--min-class-coverage <percent>",
      "fail the run when it judged fewer of the input classes of E1-E14 (docs/input-classes.md) than this",
      percent("--min-class-coverage"),
    )
    .option("--min-verified <percent>", "fail the run when it verified fewer of its MUST rules (else minVerified in the config)", percent("--min-verified"))
    .option("--runs <n>", "runs per property", integer("--runs", 1))
    .option("--seed <n>", "seed of the properties (always printed)", integer("--seed", 0))
    .option("--reporter <names...>", `reporters, as words or comma-separated: ${REPORTERS.join(", ")} (default: console)`, namesOf("--reporter", REPORTERS))
    .option("--out <dir>", "report folder", "reports")
    .option("--strict", "SHOULD failures also fail the run")
    .option("--timeout <ms>", "per request", integer("--timeout", 1))
    .option(
      "--rate-limit <n[/s|/m]>",
      "send at most this many requests a second (20, 20/s) or a minute (100/m), discovery and cleanup included (else rateLimit in the config, per second)",
      rateLimitOption,
    )
    .option("--document <file|url>", "the OpenAPI document to use where the server serves none at GET /api/v1/spec (else document in the config)")
    .option("--baseline <file>", 'known failures ({"knownFailures": [{id, reason}]}): they do not fail the run, a new one does')
    .option("--fail-on-fixed", "with --baseline: an entry whose check passes now fails the run (baselines only shrink)")
    .option("--quiet", "only the summary, one line per failure, and the reports line")
    .option("--verbose", "a line per passed check, and every skipped check instead of one example per reason")
    .option("--concurrency <n>", "checks run at once (those that disturb each other never overlap)", integer("--concurrency", 1), 8)
    .option(
      "--shard <i/n>",
      "run the i-th of n parts of the catalogue (CI matrices; join with 'conformance merge'); every shard needs the same --seed",
      (v) => {
        const shard = parseShard(v);
        if (!shard) throw new InvalidArgumentError("--shard must be i/n with 1 <= i <= n, e.g. 2/4");
        return shard;
      },
    )
    .option("--max-pages <n>", "the most pages a list walk follows (a longer walk is reported as partial)", integer("--max-pages", 1))
    .option(
      "--sweep-older-than <duration>",
      "with --allow-writes: the end-of-run sweep also removes this tool's objects left by earlier (interrupted) runs made at least this long ago, e.g. 12h or 7d",
    )
    .option("--repeat <n>", "with --allow-writes: run checks on their own scratch objects n times side by side (races)", integer("--repeat", 1))
    .action(async (opts: RunCliOptions, cmd: Command) => {
      code = await runCommand(explicitOptions(opts, cmd), out, progress);
    });

  program
    .command("list")
    .description("the catalogue: id, level, spec rule, title (--verbose: the documented variants, docs/tolerance.md, that exercise each)")
    .option("--group <names...>", "only these groups (or comma-separated)", globsOf)
    .option("--check <ids...>", "only these checks (globs on ids; or comma-separated)", globsOf)
    .option("--level <level>", "only checks of this level and above: must or should; any case", levelOf)
    .option("--json", "as JSON")
    .option("--verbose", "also the documented variants that exercise each check")
    .action(async (opts: { json?: boolean; verbose?: boolean; group?: string[]; check?: string[]; level?: (typeof LEVELS)[number] }) => {
      const { catalogue } = await import("../suites/index.js");
      const { selectChecks } = await import("../core/run/select.js");
      const { variantSections } = await import("../reference/variants.js");
      const { catalogueLines, variantsCovering } = await import("../core/reporters/console.js");
      const chosen = selectLevel(selectChecks(catalogue, opts.group, opts.check), opts.level);
      const covering = (c: (typeof catalogue)[number]) => variantsCovering(c, variantSections());
      if (opts.json)
        out(
          JSON.stringify(
            chosen.map((c) => ({
              id: c.id,
              group: c.group,
              level: c.level,
              spec: c.spec,
              title: c.title,
              needs: c.needs,
              kind: c.kind,
              variants: covering(c),
            })),
            null,
            2,
          ),
        );
      else for (const line of catalogueLines(chosen, opts.verbose ? covering : undefined)) out(line);
    });

  program
    .command("coverage")
    .description("every rule of the spec and the checks that verify it; the rules the spec leaves open, with why")
    .option("--json", "as JSON")
    .action(async (opts: { json?: boolean }) => {
      const { catalogue } = await import("../suites/index.js");
      const { coverageCommand } = await import("./commands/coverage.js");
      code = coverageCommand(catalogue, opts, out);
    });

  program
    .command("baseline")
    .description(
      "print a baseline that accepts every failure of a saved run (> baseline.json, then edit the reasons); 'baseline update <baseline.json> <report.json>' keeps the reasons, drops fixed entries, adds new failures",
    )
    .argument("<files...>", "<report.json>, or update <baseline.json> <report.json>")
    .action(async (files: string[]) => {
      code = (await import("./commands/baseline.js")).baselineCommand(files, out);
    });

  program
    .command("compare")
    .description("regressions, fixes, new and removed checks between two runs; exit 1 on a MUST regression")
    .argument("<old>", "report.json of the earlier run")
    .argument("<new>", "report.json of the later run")
    .option("--strict", "a SHOULD regression also exits 1")
    .option("--json", "as JSON")
    .action(async (oldFile: string, newFile: string, opts: { strict?: boolean; json?: boolean }) => {
      code = (await import("./commands/compare.js")).compareCommand(oldFile, newFile, opts, out);
    });

  program
    .command("replay")
    .description("re-run one check of a saved report with its seed (a property: its shrunk counterexample)")
    .argument("<report>", "a report.json written by --reporter json")
    .argument("<check>", "the id of the check to re-run")
    .option("--base-url <url>", "server under test (default: the report's)")
    .option("--token <token>", `API key (default: env ${tokenEnvVars.primary})`)
    .option("--config <file>", "JSON config")
    .option("--reference", "against a fresh bundled reference server (its own tokens and fixtures; writes allowed)")
    .option("--read-only", "with --reference: do not allow writes")
    .addOption(new Option("--fault <names...>").hideHelp())
    .option("--allow-writes", "needed again if the check writes")
    .option("--allow-unremovable-writes", "needed again if the check sets variables the API cannot delete")
    .option("--allow-deployment-changes", "needed again if the check changes a deployment")
    .option("--allow-admin-writes", "needed again if the check changes users, attributes, integrations or tenant settings")
    .option("--allow-deployment-lifecycle", "needed again if the check creates and deletes a deployment")
    .option("--allow-git-operations", "needed again if the check commits, merges or connects a repository")
    .option("--allow-unnamed-operations", "needed again if the check sends operations the spec does not name")
    .option("--reporter <names...>", `reporters, as words or comma-separated: ${REPORTERS.join(", ")} (default: console)`, namesOf("--reporter", REPORTERS))
    .option("--out <dir>", "report folder", "reports")
    .option("--quiet", "only the summary, the failure's line, and the reports line")
    .action(async (reportFile: string, checkId: string, opts: RunCliOptions, cmd: Command) => {
      opts = explicitOptions(opts, cmd);
      const saved = (await import("./commands/report-file.js")).readReport(reportFile);
      const result = saved.results.find((r) => r.id === checkId);
      if (!result) throw new UsageError(`${reportFile} has no result for ${checkId}`);
      const baseUrl = opts.baseUrl ?? (opts.reference || opts.config ? undefined : saved.target.baseUrl);
      code = await runCommand({ ...opts, baseUrl, check: [checkId], seed: saved.seed, runs: saved.runs }, out, progress, {
        checkId,
        path: result.property?.path,
      });
    });

  program
    .command("drift")
    .description(
      "the server's OpenAPI document (GET /api/v1/spec) against the spec's E1–E13: breaking differences first, then the rest and what it documents beyond the spec",
    )
    .option("--base-url <url>", "server under test (or baseUrl in the config)")
    .option("--token <token>", `API key (default: env ${tokenEnvVars.primary})`)
    .option("--config <file>", "JSON config")
    .option("--reference", "against the bundled reference server")
    .addOption(new Option("--fault <names...>").hideHelp())
    .option("--json", "as JSON")
    .option("--document <file|url>", "the OpenAPI document to use where the server serves none")
    .option("--strict", "exit 1 on a breaking difference")
    .action(async (opts: RunCliOptions & { json?: boolean }) => {
      if (opts.reference && opts.baseUrl) throw new UsageError("--reference and --base-url exclude each other");
      opts = { ...opts, config: configOf(opts) };
      const file: ConfigFile = opts.config ? readConfigFile(resolve(opts.config)) : {};
      const { startReference } = await import("../reference/server.js");
      const reference = opts.reference ? await startReference({ faults: opts.fault ?? [] }) : undefined;
      try {
        code = await (await import("./commands/drift.js")).driftCommand(settingsFrom(opts, file, reference?.config()), opts, out);
      } finally {
        await reference?.close();
      }
    });

  program
    .command("merge")
    .description("join the report.json files of all the shards (--shard i/n) of a run into one report, judged by the same gate as an unsharded run")
    .argument("<reports...>", "report.json files written by --reporter json")
    .option("--out <dir>", "folder of the joined report", "reports")
    .option(
      "--reporter <names...>",
      `what to write, as words or comma-separated: ${MERGE_REPORTERS.join(", ")}`,
      namesOf("--reporter", MERGE_REPORTERS, MERGE_DEFAULT),
      MERGE_DEFAULT,
    )
    .option("--strict", "SHOULD failures also fail")
    .option("--baseline <file>", "known failures: judged as in a run without shards")
    .option("--fail-on-fixed", "with --baseline: an entry whose check passes now fails")
    .action(async (files: string[], opts: { out: string; reporter: string[]; strict?: boolean; baseline?: string; failOnFixed?: boolean }) => {
      const { mergeCommand } = await import("./commands/merge.js");
      code = await mergeCommand(files, opts, out);
    });

  program
    .command("init")
    .description("ask the server what the suite can discover and write a commented config (fixtures found, and what the missing ones are for)")
    .option("--base-url <url>", `server to describe (or env CONFORMANCE_BASE_URL)`)
    .option("--token <token>", `API key (default: env ${tokenEnvVars.primary})`)
    .option("--token-file <file>", "read the API key from the first line of this file")
    .option("-H, --header <'Name: value'>", "send this header on every request (repeatable)", collect)
    .option("--output <file>", "the config to write", "conformance.config.json")
    .option("--force", "overwrite the file")
    .action(async (opts: SettingsOptions & { output: string; force?: boolean }) => {
      checkRunOptions(opts);
      code = await (await import("./commands/init.js")).initCommand(settingsFrom(opts, {}), opts.output, Boolean(opts.force), out);
    });

  program
    .command("reference")
    .description("serve the reference server until interrupted")
    .option("--host <host>", "address to bind", "127.0.0.1")
    .option("--port <n>", "port (0: a free one)", integer("--port", 0), 0)
    .option("--fault <names...>", "break these rules (see --list-faults)")
    .option("--variant <names...>", "answer in these documented variant shapes")
    .option("--latency <ms>", "answer every request this much later (a remote server's round trip)", integer("--latency", 0))
    .option("--list-faults", "list the faults and exit")
    .option("--write-config <file>", "write a config (baseUrl, tokens, fixtures) for --config")
    .action(async (opts) => {
      code = await referenceCommand(opts, out);
    });

  try {
    const unknown = unknownCommandMessage(argv, program);
    if (unknown) throw new UsageError(unknown);
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
