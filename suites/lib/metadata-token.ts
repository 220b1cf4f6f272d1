import { decodeJwt, type JWTPayload } from "jose";
import type { CheckContext } from "../../core/check/context.js";
import { NotExercised } from "../../core/model/outcome.js";
import { parseTimestamp, secondsBetween, type Timestamp } from "../../core/api/timestamps.js";
import { pathTo } from "../../core/transport/client.js";

/** E3's path parameters for the environment fixture (declare fixture:deployment and fixture:environment). */
export function tokenParams(ctx: Pick<CheckContext, "fixture">): { deploymentId: string; environmentId: string } {
  return { deploymentId: ctx.fixture("deployment").id, environmentId: ctx.fixture("environment").id };
}

/** E3's path for the environment fixture. */
export const tokenPath = (ctx: Pick<CheckContext, "fixture">): string => pathTo("createMetadataToken", tokenParams(ctx));

/** The JWT's claims, or undefined when it is not a JWT; the token itself never goes into a message. */
export function claimsOf(token: unknown): JWTPayload | undefined {
  try {
    return decodeJwt(String(token));
  } catch {
    return undefined;
  }
}

/** created_at and expires_at of a token result whose schema was checked (both are ISO 8601). */
export function tokenTimes(data: any): { created: Timestamp; expires: Timestamp } {
  return { created: parseTimestamp(data?.created_at)!, expires: parseTimestamp(data?.expires_at)! };
}

/**
 * Seconds from created_at to expires_at. Only one of them naming its offset leaves the two
 * incomparable (the other's zone is unknown): the rule is then not exercised, never failed.
 */
export function tokenLifetimeS(data: any): number {
  const { created, expires } = tokenTimes(data);
  const lifetime = secondsBetween(created, expires);
  if (lifetime === undefined)
    throw new NotExercised(
      `created_at ${data?.created_at} and expires_at ${data?.expires_at}: only one names its UTC offset, so the time between them is unknown`,
    );
  return lifetime;
}
