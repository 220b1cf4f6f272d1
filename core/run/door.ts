import type { Credential } from "../transport/curl.js";
import { secretHeaderValues } from "../transport/headers.js";
import { HttpClient } from "../transport/http.js";
import { Redactor } from "../transport/redact.js";
import type { TokenRole } from "../model/check.js";
import { type RunSettings, tokenEnvVars } from "./settings.js";

/** What a read-only run may send, whatever the server's document lists. */
export const READ_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

export function credentials(settings: RunSettings): { primary?: Credential; roles: Partial<Record<TokenRole, Credential>> } {
  const roles: Partial<Record<TokenRole, Credential>> = {};
  for (const [role, value] of Object.entries(settings.tokens) as [TokenRole, string | undefined][])
    if (value) roles[role] = { role, value, envVar: tokenEnvVars[role] };
  return { primary: settings.token ? { role: "primary", value: settings.token, envVar: tokenEnvVars.primary } : undefined, roles };
}

export function redactorFor(settings: RunSettings): Redactor {
  return new Redactor([settings.token, ...Object.values(settings.tokens), ...secretHeaderValues(settings.headers)]);
}

/**
 * The run's one door to the server: opened once by the command, handed to every phase (preflight,
 * the plan, discovery, the checks, coverage, drift, cleanup and the sweep), closed at the end. It
 * keeps the run's promises itself rather than trusting each code path: a read-only run sends
 * nothing but GET, HEAD and OPTIONS.
 */
export function openDoor(settings: RunSettings): HttpClient {
  return new HttpClient({
    baseUrl: settings.baseUrl,
    timeoutMs: settings.timeoutMs,
    redactor: redactorFor(settings),
    credential: credentials(settings).primary,
    maxPages: settings.maxPages,
    headers: settings.headers,
    proxy: settings.proxy,
    rateLimit: settings.rateLimit,
    wholeBodies: settings.wholeBodies,
    guard: (method) => (settings.writes || READ_METHODS.has(method) ? undefined : "a read-only run sends GET, HEAD and OPTIONS only"),
  });
}
