import { decodeJwt, type JWTPayload } from "jose";
import type { CheckContext } from "../../core/context.js";
import { Skip } from "../../core/outcome.js";

/**
 * E3's path for fixtures.environmentId, else the first environment E2 lists (declare
 * fixture:deployment and fixture:environments).
 */
export function tokenPath(ctx: Pick<CheckContext, "fixture" | "settings">): string {
  const envId = ctx.settings.fixtures.environmentId ?? ctx.fixture("environments")[0]?.id;
  if (!envId) throw new Skip("the environments list (E2) is empty: there is no environment to issue a metadata token for; set fixtures.environmentId");
  return `/api/v1/deployments/${ctx.fixture("deployment").id}/environments/${encodeURIComponent(envId)}/tokens-for-meta-sync`;
}

/** The JWT's claims, or undefined when it is not a JWT; the token itself never goes into a message. */
export function claimsOf(token: unknown): JWTPayload | undefined {
  try {
    return decodeJwt(String(token));
  } catch {
    return undefined;
  }
}
