import { decodeJwt, type JWTPayload } from "jose";
import type { CheckContext } from "../../core/context.js";

/** E3's path for the environment fixture (declare fixture:deployment and fixture:environment). */
export function tokenPath(ctx: Pick<CheckContext, "fixture">): string {
  return `/api/v1/deployments/${ctx.fixture("deployment").id}/environments/${encodeURIComponent(ctx.fixture("environment").id)}/tokens-for-meta-sync`;
}

/** The JWT's claims, or undefined when it is not a JWT; the token itself never goes into a message. */
export function claimsOf(token: unknown): JWTPayload | undefined {
  try {
    return decodeJwt(String(token));
  } catch {
    return undefined;
  }
}
