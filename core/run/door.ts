import type { Credential } from "../transport/curl.js";
import { secretHeaderValues } from "../transport/headers.js";
import { type FullAnswer, HttpClient } from "../transport/http.js";
import { Redactor } from "../transport/redact.js";
import type { TokenRole } from "../check/check.js";
import { OPT_INS, optInGranted, type RunSettings, tokenEnvVars } from "../api/settings.js";
import { deploymentAddressed, writeClassOf } from "../transport/client.js";
import { deploymentsOf } from "../transport/deployments.js";
import { matchOperation } from "../api/match.js";
import { fixturesFor } from "../check/fixtures.js";
import { KnownIds, ownId } from "../ledger/door-keyless.js";
import { OPERATIONS } from "../api/operations.js";
import { READ_METHODS } from "../api/methods.js";

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
 * keeps the run's promises itself rather than trusting each code path (guard; a request sent on
 * purpose without the key, KnownIds).
 */
export function openDoor(settings: RunSettings): HttpClient {
  const seen = new SeenDeployments();
  const ids = new KnownIds();
  const door: HttpClient = new HttpClient({
    baseUrl: settings.baseUrl,
    timeoutMs: settings.timeoutMs,
    redactor: redactorFor(settings),
    credential: credentials(settings).primary,
    maxPages: settings.maxPages,
    headers: settings.headers,
    proxy: settings.proxy,
    rateLimit: settings.rateLimit,
    wholeBodies: settings.wholeBodies,
    guard: (method, url, keyless) =>
      guard(settings, method, url.pathname) ??
      seen.outsidePlan(method, url.pathname, settings, fixturesFor(door, settings.fixtures).chosenDeployment) ??
      (keyless ? ids.refuses(method, url.pathname) : undefined),
  });
  door.watch((exchange, answer) => {
    if (!answer) return;
    seen.see(answer);
    ids.see(answer);
  });
  return door;
}

/**
 * The deployments the server listed (E1's answers, as the run read them) and those the run created:
 * a write may reach a listed one only where the plan names it (the one discovery chose, or one the
 * config names); an id the server never listed names nothing, and a negative case may use it.
 */
class SeenDeployments {
  private readonly listed = new Set<string>();
  private readonly created = new Set<string>();
  see(answer: FullAnswer): void {
    if (answer.status < 200 || answer.status >= 300 || !answer.isJson) return;
    const c = writeClassOf(answer.method, answer.url.pathname);
    const b = answer.body as any;
    if (answer.method === "GET" && matchOperation(OPERATIONS, "GET", answer.url.pathname)?.operation.name === "listDeployments")
      for (const d of deploymentsOf(b) ?? []) this.listed.add(String(d?.id));
    else if (c === "deployment-lifecycle" && answer.method === "POST") {
      const id = ownId(b);
      if (id !== undefined) this.created.add(id);
    }
  }
  outsidePlan(method: string, path: string, settings: RunSettings, chosen: string | undefined): string | undefined {
    if (READ_METHODS.includes(method)) return undefined;
    const target = deploymentAddressed(method, path);
    if (!target || !this.listed.has(target) || this.created.has(target) || target === chosen) return undefined;
    const f = settings.fixtures;
    const named = [f.deploymentId, f.otherDeploymentId, f.mutableDeploymentId, f.workbookLimitDeploymentId].filter((d) => d !== undefined).map(String);
    return named.includes(target)
      ? undefined
      : `a write to deployment ${target}, which the run's plan does not name (it writes into ${chosen ?? "the deployment discovery chooses"})`;
  }
}

/**
 * Why the run may not send this request, or undefined: a read-only run sends GET, HEAD and
 * OPTIONS only; a write of a class the user did not opt into (its row's, core/api/operations.ts;
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
