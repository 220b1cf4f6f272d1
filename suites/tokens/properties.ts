import fc from "fast-check";
import type { Api } from "../../core/transport/api.js";
import { groupedById, type CheckSpec } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { NotExercised } from "../../core/model/outcome.js";
import { forAll, CASES_AT_ONCE } from "../../core/run/property.js";
import { secondsBetween } from "../../core/api/timestamps.js";
import { securityContext } from "../../generators/index.js";
import { fromClasses } from "../../generators/classes.js";
import { domainOf } from "../../core/api/input-domain.js";
import { claimsOf, tokenPath, tokenTimes } from "../lib/metadata-token.js";

/** E3 with a generated body: the 200 answer's data, after its schema is checked. */
async function issueToken(
  ctx: CheckContext,
  api: Api,
  body: { security_context: Record<string, unknown>; expires_in: number },
): Promise<{ data: any; res: Response }> {
  const res = await api.post(tokenPath(ctx), body);
  // No maximum is stated and "number" leaves fractions open: a lifetime outside the published whole seconds 1..3600 (facts.md)
  // may be refused, never cut short.
  const safe = Number.isInteger(body.expires_in) && body.expires_in >= 1 && body.expires_in <= SAFE_LIFETIME;
  if (res.status >= 400 && res.status < 500 && !safe)
    throw new NotExercised(`expires_in ${body.expires_in} was refused (${res.status}): no lifetime to compare`);
  ctx.require(res, "E3", "issuing a metadata token");
  return { data: ctx.expect.ok(res, "MetadataTokenResponse").data, res };
}

/** facts.md: one published schema bounds expires_in to 1..3600, the values every server takes. */
const SAFE_LIFETIME = 3600;
/**
 * Every positive class of E3's expires_in (core/api/input-domain.ts): one second, plausible, the
 * default, past it, far beyond any plausible cap, fractional. A server that silently caps long
 * lifetimes shows only there.
 */
const expiresIn = fromClasses<number>(
  domainOf("createMetadataToken", "/expires_in").classes,
  ["one", "plausible", "default", "above-default", "far-beyond-cap", "fractional"],
  {
    plausible: fc.integer({ min: 2, max: SAFE_LIFETIME }),
    "above-default": fc.integer({ min: 86_401, max: 9_999_999 }),
    "far-beyond-cap": fc.integer({ min: 10_000_000, max: 1_000_000_000 }),
    // A quarter past a whole second, from 1.25 s on.
    fractional: fc.integer({ min: 1, max: 3_600_000 }).map((n) => n + 0.25),
  },
);
const lifetimes = fc.record({ security_context: securityContext(), expires_in: expiresIn });

/** A token is a credential, so issuing one is a write. */
const TOKEN_NEEDS: CheckSpec["needs"] = ["writes", "fixture:deployment", "fixture:environment"];

export const tokenPropertyChecks = groupedById([
  {
    id: "tokens.lifetime.any-expires-in",
    spec: "E3; Resources / Metadata token result",
    level: "MUST",
    title:
      "For any expires_in of every class (1 s, the default, past it, far beyond any plausible cap, fractional) and any security context, expires_at is created_at plus expires_in seconds",
    kind: "property",
    needs: TOKEN_NEEDS,
    async run(ctx) {
      await forAll(
        ctx,
        lifetimes,
        async (body, api) => {
          const { data, res } = await issueToken(ctx, api, body);
          const { created, expires } = tokenTimes(data);
          const lifetime = secondsBetween(created, expires);
          // Only one naming its offset leaves the time between them unknown: the case says nothing.
          if (lifetime === undefined) throw new NotExercised("created_at and expires_at: only one names its UTC offset");
          // Both times come from one instant: less than a second of difference is rounding, a second is not.
          ctx.expect.that(Math.abs(lifetime - body.expires_in) < 1, `with expires_in ${body.expires_in}, expires_at is created_at plus ${body.expires_in} s`, {
            reason: "lifetime",
            expected: `${body.expires_in} s`,
            got: `${lifetime} s`,
            res,
          });
          // Each case issues a token of its own and reads only it.
        },
        { casesAtOnce: CASES_AT_ONCE },
      );
    },
  },
  {
    id: "tokens.jwt.any-lifetime",
    spec: "E3 (token: JWT, valid for expires_in seconds)",
    level: "SHOULD",
    title: "For any expires_in of every class, the JWT's exp is expires_in seconds after its iat (after created_at without iat)",
    kind: "property",
    needs: TOKEN_NEEDS,
    async run(ctx) {
      await forAll(
        ctx,
        lifetimes,
        async (body, api) => {
          const { data, res } = await issueToken(ctx, api, body);
          const claims = claimsOf(data.token);
          if (!claims)
            return ctx.expect.fail("the token is not a JWT", {
              expected: "a JWT whose payload is a JSON object",
              got: "a token that does not decode",
              res,
              reason: "not-jwt",
            });
          const created = tokenTimes(data).created;
          // created_at without offset is no instant: with no iat either, the JWT's lifetime is unknown.
          if (typeof claims.iat !== "number" && !created.hasOffset) throw new NotExercised("the JWT has no iat and created_at names no UTC offset");
          const issued = typeof claims.iat === "number" ? claims.iat : created.ms / 1000;
          const lifetime = typeof claims.exp === "number" ? claims.exp - issued : undefined;
          // JWT times may be whole seconds (RFC 7519 allows fractions): iat rounded down from the instant of issue
          // (up to 1 s before it) and exp rounded either way from that instant plus expires_in (up to 1 s off) put
          // exp - iat above expires_in - 1 and below expires_in + 2 (for a whole expires_in: it or one more).
          ctx.expect.that(
            lifetime !== undefined && lifetime > body.expires_in - 1 && lifetime < body.expires_in + 2,
            `with expires_in ${body.expires_in}, the JWT's exp is ${body.expires_in} s after ${typeof claims.iat === "number" ? "iat" : "created_at"}`,
            { reason: "jwt-lifetime", expected: `${body.expires_in} s`, got: lifetime === undefined ? "no exp claim" : `${lifetime} s`, res },
          );
        },
        { casesAtOnce: CASES_AT_ONCE },
      );
    },
  },
]);
