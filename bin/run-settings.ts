import { readFileSync } from "node:fs";
import { type ConfigFile, checkBaseUrl, durationMs, type RunSettings, tokenEnvVars, UsageError } from "../core/api/settings.js";
import { useGivenDocument } from "../core/served/given-document.js";
import { parseHeaders } from "../core/transport/headers.js";
import { TOKEN_ROLES } from "../core/model/needs.js";

/** The options of a run (and of replay) that decide its settings. */
export interface SettingsOptions {
  baseUrl?: string;
  token?: string;
  tokenFile?: string;
  header?: string[];
  reference?: boolean;
  readOnly?: boolean;
  allowWrites?: boolean;
  allowUnremovableWrites?: boolean;
  allowDeploymentChanges?: boolean;
  allowAdminWrites?: boolean;
  allowDeploymentLifecycle?: boolean;
  allowGitOperations?: boolean;
  allowUnnamedOperations?: boolean;
  runs?: number;
  seed?: number;
  strict?: boolean;
  timeout?: number;
  concurrency?: number;
  repeat?: number;
  maxPages?: number;
  rateLimit?: number;
  document?: string;
  sweepOlderThan?: string;
  level?: "must";
  failFast?: boolean;
}

/** The environment variable that names the server, below --base-url and above the config's baseUrl. */
export const BASE_URL_ENV = "CONFORMANCE_BASE_URL";

/** Refusals that need no config nor server: one line each, before anything is loaded. */
export function checkRunOptions(opts: SettingsOptions): void {
  if (opts.reference && opts.baseUrl) throw new UsageError("--reference and --base-url exclude each other");
  if (opts.reference && (opts.token || opts.tokenFile))
    throw new UsageError("--reference uses the bundled server's own tokens: leave out --token and --token-file");
  if (opts.token && opts.tokenFile) throw new UsageError("--token and --token-file exclude each other");
  if (
    opts.readOnly &&
    (opts.allowWrites ||
      opts.allowUnremovableWrites ||
      opts.allowDeploymentChanges ||
      opts.allowAdminWrites ||
      opts.allowDeploymentLifecycle ||
      opts.allowGitOperations ||
      opts.allowUnnamedOperations)
  )
    throw new UsageError(
      "--read-only excludes --allow-writes, --allow-unremovable-writes, --allow-deployment-changes, --allow-admin-writes, --allow-deployment-lifecycle, --allow-git-operations and --allow-unnamed-operations",
    );
}

/**
 * Command line options win; then the config file's tokens, then the environment's (fromUser); the base
 * URL of --base-url or CONFORMANCE_BASE_URL wins over the config's. Against
 * the bundled reference (`server`), what names the server and its callers (base URL, tokens,
 * fixtures, features) is the reference's own: an exported CONFORMANCE_TOKEN or a config written
 * for a real tenant must not turn `--reference` into a run against something else. Its state is
 * thrown away, so it runs everything unless told --read-only.
 */
export function settingsFrom(opts: SettingsOptions & { config?: string }, file: ConfigFile, server?: Record<string, any>): RunSettings {
  const target = server ? fromReference(server) : fromUser(opts, file, opts.config);
  const writes = server ? !opts.readOnly : !opts.readOnly && Boolean(opts.allowWrites ?? file.writes ?? false);
  // The document stands in where the server serves none: set for this run, forgotten by the next.
  useGivenDocument(opts.document ?? file.document);
  const sweepOlderThan = opts.sweepOlderThan ?? file.sweepOlderThan;
  if (sweepOlderThan !== undefined && !writes)
    throw new UsageError("--sweep-older-than removes objects of earlier runs: it needs --allow-writes (or --reference without --read-only)");
  if (opts.repeat !== undefined && opts.repeat > 1 && !writes)
    throw new UsageError("--repeat runs the checks that write their own scratch objects again: it needs --allow-writes (or --reference without --read-only)");
  return {
    ...target,
    writes,
    unremovableWrites: writes && Boolean(opts.allowUnremovableWrites || server),
    deploymentChanges: writes && Boolean(opts.allowDeploymentChanges ?? (server ? true : (file.deploymentChanges ?? false))),
    adminWrites: writes && Boolean(opts.allowAdminWrites ?? (server ? true : (file.adminWrites ?? false))),
    deploymentLifecycle: writes && Boolean(opts.allowDeploymentLifecycle ?? (server ? true : (file.deploymentLifecycle ?? false))),
    gitOperations: writes && Boolean(opts.allowGitOperations ?? (server ? true : (file.gitOperations ?? false))),
    unnamedOperations: writes && Boolean(opts.allowUnnamedOperations ?? (server ? true : (file.unnamedOperations ?? false))),
    timeoutMs: opts.timeout ?? file.timeoutMs ?? 10_000,
    runs: opts.runs ?? file.runs ?? 100,
    seed: opts.seed ?? file.seed ?? Math.floor(Math.random() * 2 ** 31),
    strict: Boolean(opts.strict ?? file.strict ?? false),
    concurrency: opts.concurrency ?? 8,
    repeat: opts.repeat,
    maxPages: opts.maxPages,
    rateLimit: opts.rateLimit ?? file.rateLimit,
    document: opts.document ?? file.document,
    sweepOlderThanMs:
      sweepOlderThan === undefined
        ? undefined
        : durationMs(sweepOlderThan, opts.sweepOlderThan !== undefined ? "--sweep-older-than" : "the config's sweepOlderThan"),
    proxy: !server,
    headers: parseHeaders([...Object.entries(file.headers ?? {}).map(([k, v]) => `${k}: ${v}`), ...(opts.header ?? [])]),
  };
}

type Target = Pick<RunSettings, "baseUrl" | "token" | "tokens" | "tokenSources" | "fixtures" | "features">;

function fromReference(server: Record<string, any>): Target {
  return { baseUrl: checkBaseUrl(server.baseUrl), token: server.token, tokens: { ...server.tokens }, fixtures: { ...server.fixtures }, features: undefined };
}

/**
 * Where each token comes from, most explicit first: --token or --token-file, then the config (named
 * with --config or found in the working folder), then the environment. A CONFORMANCE_TOKEN left in
 * the shell does not beat the config a run names; the source is named in every credential message.
 */
function fromUser(opts: SettingsOptions, file: ConfigFile, configName = "the config"): Target {
  // The server first: a bare `conformance` is told where a run goes (or --reference) before what it needs there.
  const baseUrl = checkBaseUrl(opts.baseUrl ?? (process.env[BASE_URL_ENV] || undefined) ?? file.baseUrl);
  const [token, source] =
    opts.token !== undefined
      ? [opts.token, "--token"]
      : opts.tokenFile
        ? [readTokenFile(opts.tokenFile), `--token-file ${opts.tokenFile}`]
        : file.token
          ? [file.token, `token in ${configName}`]
          : [process.env[tokenEnvVars.primary], tokenEnvVars.primary];
  if (!token) throw new UsageError(`no token: pass --token or --token-file, put token in the config, or set ${tokenEnvVars.primary}`);
  const tokens: RunSettings["tokens"] = {};
  const tokenSources: NonNullable<RunSettings["tokenSources"]> = { primary: source };
  for (const role of TOKEN_ROLES) {
    const value = file.tokens?.[role] ?? process.env[tokenEnvVars[role]];
    if (value === undefined) continue;
    tokens[role] = value;
    tokenSources[role] = file.tokens?.[role] !== undefined ? `tokens.${role} in ${configName}` : tokenEnvVars[role];
  }
  return {
    baseUrl,
    token,
    tokens,
    tokenSources,
    fixtures: { ...file.fixtures },
    features: file.features,
  };
}

/** The first line of the file, trimmed (a trailing newline is how editors and `echo` leave it). */
function readTokenFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new UsageError(`--token-file ${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const token = text.split(/\r?\n/)[0].trim();
  if (!token) throw new UsageError(`--token-file ${path}: the file is empty`);
  return token;
}
