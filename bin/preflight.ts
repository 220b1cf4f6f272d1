import type { TokenRole } from "../core/check/check.js";
import { type Credential, type HttpClient, NetworkError, RateLimited, type Response } from "../core/transport/http.js";
import { credentials } from "../core/run/door.js";
import { type RunSettings, UsageError } from "../core/api/settings.js";
import { checkFixtures } from "./fixture-check.js";
import { answerHint, networkHint } from "./network-hints.js";
import { pathTo, requestTo } from "../core/transport/client.js";

const E1 = pathTo("listDeployments");
const SPEC = pathTo("getSpec");

/**
 * Exit 2 before any check when the run could not mean anything: the server cannot be reached,
 * rejects a configured token (each is tried, so that a bad extra token is not charged to the
 * server as failures), is not this API at all, or lacks a fixture the config names. A server whose E1 is broken but which serves
 * the API's description (GET /api/v1/spec) is this API: that is for the checks to judge.
 */
export async function preflight(settings: RunSettings, client: HttpClient): Promise<void> {
  const creds = credentials(settings);
  client.phase = "preflight";
  const first = await reach(settings.baseUrl, () => client.send({ method: "GET", path: E1, query: { limit: 1 } }));
  if (first.status === 401 || first.status === 403)
    throw new UsageError(`the server rejected the token from ${settings.tokenSources?.primary ?? "the bundled reference"} (${first.status} on GET ${E1})`);
  if (first.status >= 300 && first.status < 400)
    throw new UsageError(
      `GET ${E1} answered ${first.status}, a redirect to ${first.headers.location ?? "(no location)"}: point --base-url at the address the API answers on`,
    );
  const wrongScheme = answerHint(first.status, first.text, settings.baseUrl);
  if (wrongScheme) throw new UsageError(wrongScheme);
  if (!looksLikeE1(first) && !(await servesTheSpec(client, settings.baseUrl)))
    throw new UsageError(
      `${settings.baseUrl} does not answer like the Analytics Platform Management API: GET ${E1} answered ${described(first)}, and GET ${SPEC} serves no OpenAPI document (check --base-url)`,
    );
  for (const [role, credential] of Object.entries(creds.roles) as [TokenRole, Credential][]) {
    const res = await reach(settings.baseUrl, () => client.send({ method: "GET", path: E1, query: { limit: 1 }, credential }));
    // 403 is a valid credential without access to that (published docs: Authentication); only 401 rejects it.
    if (res.status === 401)
      throw new UsageError(`the server rejected the ${role} token from ${settings.tokenSources?.[role] ?? credential.envVar} (401 on GET ${E1})`);
  }
  await checkFixtures(client, creds.primary, settings.fixtures);
}

async function reach(baseUrl: string, send: () => Promise<Response>): Promise<Response> {
  try {
    return await send();
  } catch (e) {
    if (e instanceof RateLimited) throw new UsageError(`${baseUrl} kept answering 429 (rate limited) at preflight: try again later`);
    if (e instanceof NetworkError) throw new UsageError(`cannot reach ${baseUrl}: ${e.exchange.error}${networkHint(e.exchange.error ?? "", baseUrl)}`);
    throw e;
  }
}

/** Either documented E1 shape: data.deployments (the spec), or data / items arrays (the published document). */
function looksLikeE1(res: Response): boolean {
  const body = res.body;
  return res.status === 200 && res.isJson && (Array.isArray(body?.data?.deployments) || Array.isArray(body?.data) || Array.isArray(body?.items));
}

async function servesTheSpec(client: HttpClient, baseUrl: string): Promise<boolean> {
  const res = await reach(baseUrl, () => client.send(requestTo("getSpec")));
  return res.status === 200 && res.isJson && typeof res.body?.openapi === "string";
}

function described(res: Response): string {
  const type = res.headers["content-type"]?.split(";")[0] ?? "no content type";
  if (!res.isJson) return `${res.status} with ${/html/i.test(type) ? "HTML" : type}, not JSON`;
  return res.status === 200 ? "200 JSON without a deployments list" : String(res.status);
}
