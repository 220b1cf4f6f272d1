import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";
import type { TokenRole } from "./check.js";
import { schemasDir } from "./paths.js";

const addFormats = ((formatsModule as any).default ?? formatsModule) as (ajv: Ajv2020) => Ajv2020;

/** A mistake of the user's (bad option, bad config, no token): one clear line, exit 2. */
export class UsageError extends Error {}

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
  /** The deployment whose version, channel and settings the run may change (and put back). */
  mutableDeploymentId?: string | number;
}

export interface RunSettings {
  baseUrl: string;
  token?: string;
  tokens: Partial<Record<TokenRole, string>>;
  writes: boolean;
  /** Also run checks whose creations cannot be removed through the API. */
  unremovableWrites: boolean;
  /** Also run checks that change a deployment's version, channel or settings (on fixtures.mutableDeploymentId). */
  deploymentChanges?: boolean;
  timeoutMs: number;
  runs: number;
  seed: number;
  strict: boolean;
  fixtures: FixtureConfig;
  /** `conformance replay`: run this property's recorded counterexample path only. */
  replay?: { checkId: string; path: string };
}

export const tokenEnvVars: Record<"primary" | TokenRole, string> = {
  primary: "CONFORMANCE_TOKEN",
  readOnly: "CONFORMANCE_TOKEN_READONLY",
  noAudit: "CONFORMANCE_TOKEN_NOAUDIT",
  creator: "CONFORMANCE_TOKEN_CREATOR",
};

export interface ConfigFile {
  baseUrl?: string;
  token?: string;
  tokens?: Partial<Record<TokenRole, string>>;
  writes?: boolean;
  deploymentChanges?: boolean;
  timeoutMs?: number;
  runs?: number;
  seed?: number;
  strict?: boolean;
  fixtures?: FixtureConfig;
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
    throw new UsageError(`config ${path} is not valid JSON: ${(err as Error).message}`);
  }
  const errors = validateConfig(value);
  if (errors.length) throw new UsageError(`config ${path} is invalid: ${errors.join("; ")}`);
  return value as ConfigFile;
}

let configValidator: ((v: unknown) => string[]) | undefined;

export function validateConfig(value: unknown): string[] {
  if (!configValidator) {
    const schema = JSON.parse(readFileSync(join(schemasDir, "config.schema.json"), "utf8"));
    const fn = addFormats(new Ajv2020({ strict: false, allErrors: true })).compile(schema);
    configValidator = (v) =>
      fn(v) ? [] : (fn.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message}${e.keyword === "additionalProperties" ? ` '${(e.params as any).additionalProperty}'` : ""}`);
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
