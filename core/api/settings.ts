import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ajv2020 } from "./ajv.js";
import type { Feature, Need, TokenRole } from "../model/needs.js";
import { schemasDir } from "./paths.js";
import { UsageError } from "../model/usage-error.js";
import { Skip } from "../model/outcome.js";

// The settings' own mistake, defined in core/model/usage-error.ts; bin/ takes it from here with the settings it reads.
export { UsageError } from "../model/usage-error.js";

/**
 * The needs a user opts into beyond --allow-writes (core/model/needs.ts), each with the setting that
 * grants it and why a check that has it is skipped without it: one table for the runner's skips
 * and the plan line.
 */
export const OPT_INS = {
  "unremovable-writes": {
    granted: (s: RunSettings) => s.unremovableWrites,
    unmet:
      "creates data the API cannot delete (environment or template variables, what a server documents no delete of): pass --allow-writes --allow-unremovable-writes, or run against --reference",
  },
  "deployment-changes": {
    granted: (s: RunSettings) => s.deploymentChanges,
    unmet:
      'changes a deployment\'s version, channel or settings: pass --allow-writes --allow-deployment-changes (or "deploymentChanges": true in the config) and name the deployment in fixtures.mutableDeploymentId',
  },
  "admin-writes": {
    granted: (s: RunSettings) => s.adminWrites,
    unmet:
      'changes users, user attributes, tenant settings or integrations: pass --allow-writes --allow-admin-writes (or "adminWrites": true in the config), or run against --reference',
  },
  "deployment-lifecycle": {
    granted: (s: RunSettings) => s.deploymentLifecycle,
    unmet:
      'creates and deletes a deployment of its own: pass --allow-writes --allow-deployment-lifecycle (or "deploymentLifecycle": true in the config), or run against --reference',
  },
  "git-operations": {
    granted: (s: RunSettings) => s.gitOperations,
    unmet:
      'commits, pulls and merges branches (one into the default branch) and connects a repository, in a deployment of its own: pass --allow-writes --allow-git-operations (or "gitOperations": true in the config), or run against --reference',
  },
  "unnamed-operations": {
    granted: (s: RunSettings) => s.unnamedOperations,
    unmet:
      'sends the writes of the server\'s document that the spec does not name, whose effect the tool cannot know: pass --allow-writes --allow-unnamed-operations (or "unnamedOperations": true in the config), or run against --reference',
  },
} as const satisfies Partial<Record<Need, { granted: (s: RunSettings) => boolean | undefined; unmet: string }>>;

/** An opt-in beyond --allow-writes: its flag is `--allow-<opt-in>`. */
export type OptIn = keyof typeof OPT_INS;

/** The opt-ins the run grants (with writes), in OPT_INS's order. */
export const grantedOptIns = (s: RunSettings): OptIn[] => (Object.keys(OPT_INS) as OptIn[]).filter((o) => optInGranted(o, s));

/** A check's need that holds on some servers only (CheckContext.needHere): without its opt-in, the check ends skipped in the opt-in's words. */
export const optInNeededBy =
  (s: RunSettings) =>
  (need: OptIn, because: string): void => {
    if (!optInGranted(need, s)) throw new Skip(`${because}: ${OPT_INS[need].unmet}`);
  };

/** Whether a need is an opt-in of OPT_INS, and the run grants it (with writes). */
export const optInGranted = (need: Need, s: RunSettings): boolean | undefined =>
  need in OPT_INS ? Boolean(s.writes && OPT_INS[need as keyof typeof OPT_INS].granted(s)) : undefined;

export interface FixtureConfig {
  deploymentId?: string | number;
  otherDeploymentId?: string | number;
  environmentId?: string;
  workbookId?: number;
  readOnlyFolderId?: number;
  editableFolderId?: number;
  sharedWorkbookId?: number;
  sharedUnpublishedWorkbookId?: number;
  sharedBranch?: string;
  personalBranch?: string;
  productionBranch?: string;
  workbookLimitDeploymentId?: string | number;
  /** Empty folders to move the run's items into where the server cannot create folders (E14). */
  scratchFolderIds?: number[];
  /** The deployment whose version, channel and settings the run may change (and put back). */
  mutableDeploymentId?: string | number;
}

export interface RunSettings {
  baseUrl: string;
  token?: string;
  tokens: Partial<Record<TokenRole, string>>;
  /** Where each token came from ("--token", "token in conformance.config.json", "CONFORMANCE_TOKEN"...): named in every credential message. */
  tokenSources?: Partial<Record<TokenRole | "primary", string>>;
  writes: boolean;
  /** Also run checks whose creations cannot be removed through the API. */
  unremovableWrites: boolean;
  /** Also run checks that change a deployment's version, channel or settings (on fixtures.mutableDeploymentId). */
  deploymentChanges?: boolean;
  /** Also run checks that change users, user attributes, groups, tenant settings, integrations or embed tenants (E14 administration; --allow-admin-writes). */
  adminWrites?: boolean;
  /** Also create a deployment, drive its setup wizard and delete it: only the one the run created, confirmed by a read-back (--allow-deployment-lifecycle). */
  deploymentLifecycle?: boolean;
  /** Also commit, pull and merge branches the run created (one into the default branch) and connect a deployment to a repository, in a deployment of the run's own (--allow-git-operations, with deploymentLifecycle). */
  gitOperations?: boolean;
  /** Also send each write of the served document that the spec does not name one valid request, on discovered objects (--allow-unnamed-operations). */
  unnamedOperations?: boolean;
  timeoutMs: number;
  /** Overrides the time limit of every check (default: 60 s for an example, 180 s for a property or model). */
  checkTimeoutMs?: number;
  runs: number;
  seed: number;
  strict: boolean;
  fixtures: FixtureConfig;
  /** Plan features declared off (false): their checks are skipped instead of failing on a refusal. */
  features?: Partial<Record<Feature, boolean>>;
  /** Checks run at once (default 1 here; the CLI's default is 8): see core/run/schedule.ts. */
  concurrency?: number;
  /** --repeat: checks on their own scratch objects run this many times side by side. */
  repeat?: number;
  /** The most pages a list walk follows; a walk stopped there is partial, not failed. */
  maxPages?: number;
  /** `conformance replay`: run this property's recorded counterexample path only. */
  replay?: { checkId: string; path?: string };
  /** Sent on every request (--header, the config's headers); secret-looking values are redacted. */
  headers?: Record<string, string>;
  /** Honour HTTPS_PROXY / HTTP_PROXY / NO_PROXY (not for the bundled reference, on loopback). */
  proxy?: boolean;
  /** --rate-limit: the most requests a second the run sends, every request counted (discovery and cleanup too). */
  rateLimit?: number;
  /** The HAR reporter is on: exchanges keep their bodies whole (up to the client's cap) beside the excerpts. */
  wholeBodies?: boolean;
  /** --document: the OpenAPI document (a file or URL) to use where the server serves none at GET /api/v1/spec. */
  document?: string;
  /** --sweep-older-than: the end-of-run sweep also removes the tool's objects of earlier runs made this long ago or more (confirmed as for the run's own). */
  sweepOlderThanMs?: number;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90m`, `12h`, `7d` (ms, s, m, h, d) in milliseconds; anything else is a usage error naming `where`. */
export function durationMs(text: string, where: string): number {
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim());
  if (!m) throw new UsageError(`${where} must be a duration such as 90m, 12h or 7d (units ms, s, m, h, d), not ${JSON.stringify(text)}`);
  return Number(m[1]) * DURATION_UNITS[m[2]];
}

export const tokenEnvVars: Record<"primary" | TokenRole, string> = {
  primary: "CONFORMANCE_TOKEN",
  readOnly: "CONFORMANCE_TOKEN_READONLY",
  noAudit: "CONFORMANCE_TOKEN_NOAUDIT",
  auditor: "CONFORMANCE_TOKEN_AUDITOR",
  creator: "CONFORMANCE_TOKEN_CREATOR",
  viewer: "CONFORMANCE_TOKEN_VIEWER",
  scoped: "CONFORMANCE_TOKEN_SCOPED",
};

export interface ConfigFile {
  baseUrl?: string;
  token?: string;
  tokens?: Partial<Record<TokenRole, string>>;
  writes?: boolean;
  deploymentChanges?: boolean;
  adminWrites?: boolean;
  deploymentLifecycle?: boolean;
  gitOperations?: boolean;
  unnamedOperations?: boolean;
  timeoutMs?: number;
  runs?: number;
  seed?: number;
  strict?: boolean;
  /** Default of --min-verified (percent of the run's MUST rules verified). */
  minVerified?: number;
  fixtures?: FixtureConfig;
  features?: Partial<Record<Feature, boolean>>;
  headers?: Record<string, string>;
  rateLimit?: number;
  document?: string;
  /** Default of --sweep-older-than (a duration: 12h, 7d). */
  sweepOlderThan?: string;
  /** Defaults of --reporter, --out and --baseline. */
  reporters?: string[];
  out?: string;
  baseline?: string;
}

export function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read config ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`config ${path} is not valid JSON: ${jsonErrorAt(text, (err as Error).message)}`);
  }
  const errors = validateConfig(value);
  if (errors.length) throw new UsageError(`config ${path} is invalid: ${errors.join("; ")}`);
  return value as ConfigFile;
}

/** JSON.parse's complaint on one line, with the line and column its position falls on. */
function jsonErrorAt(text: string, message: string): string {
  const first = message
    .split("\n")[0]
    .replace(/ in JSON at position \d+.*$/, "")
    .replace(/^JSON Parse error: /, "");
  const position = Number(/at position (\d+)/.exec(message)?.[1] ?? (text.trim() === "" ? 0 : NaN));
  if (!Number.isFinite(position)) return first;
  const before = text.slice(0, position).split("\n");
  return `line ${before.length}, column ${before.at(-1)!.length + 1}: ${first}`;
}

let configValidator: ((v: unknown) => string[]) | undefined;

export function validateConfig(value: unknown): string[] {
  if (!configValidator) {
    const schema = JSON.parse(readFileSync(join(schemasDir, "config.schema.json"), "utf8"));
    const fn = ajv2020({ strict: false, allErrors: true }).compile(schema);
    configValidator = (v) =>
      fn(v)
        ? []
        : (fn.errors ?? []).map(
            (e) => `${e.instancePath || "(root)"} ${e.message}${e.keyword === "additionalProperties" ? ` '${(e.params as any).additionalProperty}'` : ""}`,
          );
  }
  return configValidator(value);
}

export function checkBaseUrl(url: string | undefined): string {
  if (!url) throw new UsageError("no server to test: pass --base-url <url>, --config <file> with baseUrl, or --reference");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--base-url is not a URL: ${url}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new UsageError(`--base-url must be http or https: ${url}`);
  return url.replace(/\/+$/, "");
}
