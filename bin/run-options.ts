import { type Command, InvalidArgumentError } from "commander";
import { dirname, resolve } from "node:path";
import type { Check } from "../core/check/check.js";
import { type ConfigFile, UsageError } from "../core/api/settings.js";

/** --level: the lowest level a run takes; `should` is every check. */
export const LEVELS = ["must", "should"] as const;

/** --level in any case (MUST, Must, must). */
export function levelOf(v: string): (typeof LEVELS)[number] {
  const level = v.toLowerCase() as (typeof LEVELS)[number];
  if (!LEVELS.includes(level)) throw new InvalidArgumentError(`--level must be one of ${LEVELS.join(", ")} (any case)`);
  return level;
}

export function selectLevel(checks: Check[], level: (typeof LEVELS)[number] | undefined): Check[] {
  if (level !== "must") return checks;
  const must = checks.filter((c) => c.level === "MUST");
  if (!must.length) throw new UsageError(`--level must leaves none of the ${checks.length} selected checks: they are all SHOULD`);
  return must;
}

/** --rate-limit: requests a second (20, 0.5, 20/s) or a minute (100/m, 100/min), as API quotas are stated; the run reads it per second. */
export function rateLimitOption(v: string): number {
  const m = /^(\d+(?:\.\d+)?)(?:\/(s|sec|second|m|min|minute))?$/i.exec(v.trim());
  if (!m || Number(m[1]) <= 0) throw new InvalidArgumentError("--rate-limit must be a number of requests above 0 a second (20, 0.5, 20/s) or a minute (100/m)");
  return /^m/i.test(m[2] ?? "") ? Number(m[1]) / 60 : Number(m[1]);
}

/** A repeatable option's values (`--header A --header B`). */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Options that the config may set: commander's defaults for them are dropped, so that the config's can apply. */
const CONFIGURABLE = ["reporter", "out"] as const;

export function explicitOptions<T extends { reporter?: string[]; out?: string }>(opts: T, cmd: Command): T {
  const explicit = { ...opts };
  for (const name of CONFIGURABLE) if (cmd.getOptionValueSource(name) === "default") delete explicit[name];
  return explicit;
}

/**
 * The reporters, report folder and baseline of a run: the options, else the config's `reporters`,
 * `out` and `baseline` (paths relative to the config file, which sits beside them in a repository),
 * else console and ./reports.
 */
export function fromConfig(
  opts: { reporter?: string[]; out?: string; baseline?: string },
  file: ConfigFile,
  configPath: string | undefined,
  known: readonly string[],
): { reporter: string[]; out: string; baseline?: string } {
  const beside = (p: string) => resolve(configPath ? dirname(resolve(configPath)) : ".", p);
  const unknown = (file.reporters ?? []).filter((r) => !known.includes(r));
  if (unknown.length) throw new UsageError(`config ${configPath}: unknown reporter ${unknown.join(", ")} in reporters (known: ${known.join(", ")})`);
  return {
    reporter: opts.reporter ?? file.reporters ?? ["console"],
    out: opts.out ?? (file.out !== undefined ? beside(file.out) : "reports"),
    baseline: opts.baseline ?? (file.baseline !== undefined ? beside(file.baseline) : undefined),
  };
}
