import { InvalidArgumentError } from "commander";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../core/spec/paths.js";
import type { SettingsOptions } from "./run-settings.js";

/** What the CLI's commands share: the package, the reporters, the signals that stop a run, the option parsers. */
export const pkg = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { name: string; version: string };
export const REPORTERS = ["console", "junit", "json", "html", "har", "ctrf"] as const;
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
  minCoverage?: number;
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
