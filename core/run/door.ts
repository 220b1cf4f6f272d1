import type { Credential } from "../transport/curl.js";
import { secretHeaderValues } from "../transport/headers.js";
import { HttpClient } from "../transport/http.js";
import { Redactor } from "../transport/redact.js";
import type { TokenRole } from "../model/check.js";
import { OPT_INS, optInGranted, type RunSettings, tokenEnvVars } from "./settings.js";
import { writeClassOf } from "../spec/client.js";
import { READ_METHODS } from "../spec/operations.js";
import type { Need } from "../model/needs.js";

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
 * keeps the run's promises itself rather than trusting each code path (guard).
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
    guard: (method, url) => guard(settings, method, url.pathname),
  });
}

/**
 * Why the run may not send this request, or undefined: a read-only run sends GET, HEAD and
 * OPTIONS only; a write of a class the user did not opt into (its row's, core/spec/operations.ts;
 * "unnamed-operations" for one the table does not name) is not sent either.
 */
export function guard(settings: RunSettings, method: string, path: string): string | undefined {
  if (READ_METHODS.includes(method)) return undefined;
  if (!settings.writes) return "a read-only run sends GET, HEAD and OPTIONS only";
  const c = writeClassOf(method, path);
  if (c in OPT_INS && !optInGranted(c as Need, settings))
    return `a write of class ${c}, which the run did not opt into: ${OPT_INS[c as keyof typeof OPT_INS].unmet}`;
  return undefined;
}
