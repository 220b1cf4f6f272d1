import { InvalidArgumentError } from "commander";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../core/api/paths.js";
import type { SettingsOptions } from "./run-settings.js";

/** What the CLI's commands share: the package, the reporters, the signals that stop a run, the option parsers. */
export const pkg = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { name: string; version: string };
export { MERGE_REPORTERS, REPORTERS } from "../core/reporters/write.js";
/** Each stops a run (cleanup still runs) or a served reference; SIGHUP: the terminal went away. */
export const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

export const integer = (name: string, min: number) => (v: string) => {
  if (!/^-?\d+$/.test(v) || Number(v) < min) throw new InvalidArgumentError(`${name} must be an integer >= ${min}`);
  return Number(v);
};

export const percent = (name: string) => (v: string) => {
  if (!/^\d+(\.\d+)?$/.test(v) || Number(v) > 100) throw new InvalidArgumentError(`${name} must be a percentage from 0 to 100`);
  return Number(v);
};

export interface RunCliOptions extends SettingsOptions {
  config?: string;
  group?: string[];
  check?: string[];
  excludeCheck?: string[];
  maxFailures?: number;
  minCoverage?: number;
  minClassCoverage?: number;
  minVerified?: number;
  strict?: boolean;
  failOnFixed?: boolean;
  /** Unset: the config's reporters, else console (commander's default is dropped in the action). */
  reporter?: string[];
  out?: string;
  fault?: string[];
  baseline?: string;
  quiet?: boolean;
  verbose?: boolean;
  shard?: { index: number; count: number };
}

/**
 * A list option that takes its values as separate words or comma-separated (`--reporter junit,json`),
 * each one of `known`; `initial` is the option's default, replaced (not extended) by the first value given.
 */
export const namesOf =
  (option: string, known: readonly string[], initial?: string[]) =>
  (value: string, previous?: string[]): string[] => {
    const names = value
      .split(",")
      .map((n) => n.trim().toLowerCase())
      .filter(Boolean);
    const unknown = names.filter((n) => !known.includes(n));
    if (unknown.length) throw new InvalidArgumentError(`${option}: unknown ${unknown.join(", ")} (known: ${known.join(", ")})`);
    return [...new Set([...(previous && previous !== initial ? previous : []), ...names])];
  };

/** Globs that take separate words or comma-separated values (`--check 'a.*,b.*'`). */
export const globsOf = (value: string, previous: string[] = []): string[] => [
  ...previous,
  ...value
    .split(",")
    .map((g) => g.trim())
    .filter(Boolean),
];

/** --max-failures <n>: the run starts no further check once n results have failed it (--fail-fast is 1). */
export const MAX_FAILURES = "--max-failures";

/** The config a run reads without --config: the one `conformance init` writes, in the working folder. */
export const CONFIG_IN_CWD = "conformance.config.json";

/** --config, else ./conformance.config.json when there is one (said on stderr); --reference runs on its own server's settings. */
export function configOf(opts: { config?: string; reference?: boolean }): string | undefined {
  if (opts.config) return opts.config;
  if (opts.reference || !existsSync(CONFIG_IN_CWD)) return undefined;
  process.stderr.write(`conformance: using ./${CONFIG_IN_CWD} from the working folder (--config names another)\n`);
  return CONFIG_IN_CWD;
}
