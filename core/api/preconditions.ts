import { type Endpoint, specEndpoints } from "./endpoints.js";
import { statusLine } from "./expect.js";
import type { Exchange, Response } from "../model/exchange.js";
import { Blocked, CheckFailure, NotVerifiable, Skip } from "../model/outcome.js";

/**
 * A precondition is a request a check (or fixture discovery) sends to build its scenario, not the
 * one its rule is about. What an unusable answer to it means is decided here, for every check:
 * - 401 or 403: the token lacks the access the scenario needs (the user's setup): skipped;
 * - an endpoint whose shape the spec does not show (E14): not verifiable on this server;
 * - a spec'd endpoint (E1-E13) answering anything but a usable 2xx (404, 5xx, not JSON, not the
 *   shape needed): blocked by the check that owns the endpoint (core/api/endpoints.ts).
 * The owner itself (`checkId`) never skips or blocks on its own endpoint: it fails, whatever the
 * problem, so that a refused or missing endpoint always shows as one failure.
 * Returns the body of a usable answer.
 */
export function requireAnswer<T>(
  res: Response<T>,
  endpoint: Endpoint,
  what: string,
  usable: (res: Response) => boolean = (r) => r.isJson,
  checkId?: string,
  served: ServedRoutes = NONE_SHOWN,
): T {
  const problem = problemOf(res, usable);
  if (!problem) return res.body;
  const detail = `${what}: ${res.exchange.method} ${pathOf(res)} ${problem}`;
  if (endpoint !== "E14" && specEndpoints[endpoint].root === checkId)
    throw new CheckFailure(detail, { expected: "a usable 2xx answer", got: statusLine(res), exchange: res.exchange, reason: "precondition" });
  if (res.status === 401 || res.status === 403) throw new Skip(`${detail}: the token lacks the access this needs`);
  if (endpoint === "E14") throw new NotVerifiable(`${detail} (an E14 endpoint: the spec does not show its shape)`);
  const e = specEndpoints[endpoint];
  // The owner passed: the endpoint serves as the spec says, so this answer is not its fault but this request's.
  if (served.passed(e.root))
    throw new CheckFailure(`${detail} (${e.method} ${e.path} serves: its owner check ${e.root} passed)`, {
      expected: "a usable 2xx answer",
      got: statusLine(res),
      exchange: res.exchange,
      reason: "precondition",
    });
  throw new Blocked(`${e.root}: ${e.method} ${e.path} ${problem}`, { detail, exchange: res.exchange, rootCheck: e.root });
}

/**
 * What the run has shown of the spec'd routes so far: the owner checks (core/api/endpoints.ts) that
 * passed. A route whose owner passed is served: a 404 on it answers the request, it does not say
 * the route is missing, and nothing is blocked by a root that passed.
 */
export interface ServedRoutes {
  passed(rootCheck: string): boolean;
}
const NONE_SHOWN: ServedRoutes = { passed: () => false };

function problemOf(res: Response, usable: (res: Response) => boolean): string | undefined {
  if (res.status < 200 || res.status >= 300) return `answered ${res.status}`;
  if (usable(res)) return undefined;
  return res.isJson ? `answered ${res.status} without what was needed` : `answered ${res.status} with a body that is not JSON`;
}

function pathOf(res: Response): string {
  try {
    return new URL(res.exchange.url).pathname;
  } catch {
    return res.exchange.url;
  }
}

/**
 * Discovery is a root of its own: a read that finds what checks need (the deployments list, a
 * deployment's versions) and gave nothing usable is one root named for what it discovers, with the
 * server's answer; every check that needed it is blocked under that same label, in every output and
 * in a replay. It is never charged to a check (the first to ask is no more at fault than the rest),
 * nor to the list's owner check, which judges the list with requests of its own.
 */
export function discoveryRoot(what: string, why: string, exchange?: Exchange, endpoint?: Exclude<Endpoint, "E14">): Blocked {
  const root = `discovery: ${what}`;
  // The server's answer, as the user would see it: the request, its status and the start of the body.
  const answer =
    exchange?.status === undefined
      ? ""
      : ` (${exchange.method} ${exchange.url} answered ${exchange.status}: ${(exchange.responseExcerpt ?? "").slice(0, 160)})`;
  const e = endpoint && specEndpoints[endpoint];
  const owner = e && { check: e.root, cause: `${e.root}: ${e.method} ${e.path} ${exchange?.status === undefined ? why : `answered ${exchange.status}`}` };
  return new Blocked(`${root}: ${why}${answer}`, { rootCheck: root, exchange, owner });
}

/** A discovery read's usable body; a 401 or 403 is the user's setup (skipped), anything else the discovery root. */
export function discovered<T>(res: Response<T>, what: string, endpoint: Exclude<Endpoint, "E14">, usable: (res: Response) => boolean = (r) => r.isJson): T {
  const problem = problemOf(res, usable);
  if (!problem) return res.body;
  if (res.status === 401 || res.status === 403)
    throw new Skip(`discovering ${what}: ${res.exchange.method} ${pathOf(res)} ${problem}: the token lacks the access this needs`);
  throw discoveryRoot(what, problem, res.exchange, endpoint);
}

/** What a list walk that broke while discovery relied on it throws: the discovery root (a skip or a lost connection passes as it is). */
export function discoveryWalkFailed(what: string, endpoint: Exclude<Endpoint, "E14">): (err: unknown) => never {
  return (err) => {
    if (err instanceof CheckFailure) throw discoveryRoot(what, err.message, err.exchange, endpoint);
    if (err instanceof Blocked) throw discoveryRoot(what, err.rootCause, err.about.exchange, endpoint);
    throw err;
  };
}

/**
 * For a check that expects a refusal (a 4xx): a 404 or 405 may say the route itself is missing,
 * which refuses everything and proves nothing, so it is judged as requireAnswer judges it. Only
 * where the route is shown missing: on a route whose owner check passed, a 404 for an unknown or
 * wrongly typed reference is the server's answer, and the check judges it.
 */
export function requireRoute(res: Response, endpoint: Endpoint, what: string, checkId?: string, served: ServedRoutes = NONE_SHOWN): void {
  if (res.status !== 404 && res.status !== 405) return;
  if (endpoint !== "E14" && served.passed(specEndpoints[endpoint].root)) return;
  requireAnswer(res, endpoint, what, undefined, checkId, served);
}
