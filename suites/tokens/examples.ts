import { isDeepStrictEqual } from "node:util";
import type { JWTPayload } from "jose";
import { group, type Need } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { sameInstant } from "../../core/api/timestamps.js";
import { classOf } from "../../core/api/input-domain.js";
import { claimsOf as decodedClaims, tokenLifetimeS, tokenPath, tokenTimes } from "../lib/metadata-token.js";
import { pathTo } from "../../core/transport/client.js";
import { ownWorkbook } from "../lib/workbook-writes.js";
import { LIMITS, type OperationName, type SpecSection } from "../../core/api/operations.js";

const DEFAULT_LIFETIME_S = LIMITS.tokenLifetimeSeconds;
/** published docs: one published schema bounds expires_in to 1..3600, so only values in it are sent. */
const SENT_LIFETIMES_S = [1, 900, 3600];
/** created_at, expires_at and the JWT's times are whole seconds apart at best. */
const SLACK_S = 1;
/** Issuing a token changes no data, but it is a credential a run should not mint unasked. */
const NEEDS: Need[] = ["writes", "fixture:deployment", "fixture:environment"];

/** A context no server holds already: a claim equal to it can only have come from this request. */
/** A context with letters outside ASCII, outside Latin-1 and outside the BMP: a payload encoded other than UTF-8 mangles only these. */
const securityContext = (ctx: CheckContext) => ({ tenant_id: ctx.scratch.name("tenant"), roles: ["conformance-reader"], site: "Zürich 東京 🌍" });

/** Issues a token; the answer must be a 200 MetadataTokenResponse. */
async function issue(ctx: CheckContext, body: Record<string, unknown>): Promise<{ data: any; res: Response }> {
  const res = await ctx.api.post(tokenPath(ctx), body);
  ctx.require(res, "E3", "issuing a metadata token");
  return { data: ctx.expect.ok(res, "MetadataTokenResponse").data, res };
}

/** One read of each management endpoint (Authentication 3: a metadata token is valid on none of them); E9 on a workbook E8 lists. */
async function managementReads(ctx: CheckContext): Promise<[string, string][]> {
  const deploymentId = ctx.fixture("deployment").id;
  const reads: [SpecSection, OperationName][] = [
    ["E1", "listDeployments"],
    ["E2", "listEnvironments"],
    ["E5", "listVersions"],
    ["E8", "listWorkbooks"],
    ["E13", "listEnvVars"],
  ];
  const paths: [string, string][] = reads.map(([section, name]) => [section, pathTo(name, { deploymentId })]);
  // The other prefix too ("What the service does", Base address: two prefixes, one host, the same token): a server
  // that scopes the token by prefix refuses it on one only.
  paths.push(["E14 branches (/build/api/v1)", pathTo("listBranches", { deploymentId })]);
  const listed = await ctx.api.call("listWorkbooks", { deploymentId }, { query: { first: 1 } });
  const id = Array.isArray(listed.body?.items) ? listed.body.items[0]?.id : undefined;
  if (id !== undefined && Number.isSafeInteger(id)) paths.push(["E9", pathTo("getWorkbook", { deploymentId, workbookId: id })]);
  return paths;
}

/**
 * A 4xx, reported by its status alone: a 2xx answer here holds a token, and a body excerpt cut
 * short would leave the token's start unrecognised by the report's JWT masking.
 */
function expectRejected(ctx: CheckContext, res: Response, what: string): void {
  ctx.requireRoute(res, "E3", what);
  ctx.expect.that(res.status >= 400 && res.status < 500, what, { reason: "client-error", expected: "a 4xx status", got: `status ${res.status}`, res });
}

/**
 * What the spec states of a broken E3 body, which names no status for it: no token comes of it,
 * and it is no server error. The 4xx is judged at SHOULD (tokens.request.broken-body-4xx).
 */
function expectNoToken(ctx: CheckContext, res: Response, what: string): void {
  ctx.expect.that(res.status < 500, `${what}: no server error`, { expected: "a status below 500", got: `status ${res.status}`, res, reason: "no-5xx" });
  const token = res.status < 300 && res.isJson ? res.body?.data?.token : undefined;
  ctx.expect.that(token === undefined, `${what}: no token is issued`, { reason: "no-token", expected: "no data.token", got: "a token", res });
}

/** The broken bodies the MUST checks below send, one per rule of E3's body. */
const brokenBodies = (ctx: CheckContext): { body: unknown; what: string }[] => [
  { body: { expires_in: SENT_LIFETIMES_S[1] }, what: "a request without security_context" },
  ...[["tenant"], "tenant", null].map((value) => ({ body: { security_context: value }, what: `security_context ${JSON.stringify(value)}` })),
  { body: { security_context: securityContext(ctx), expires_in: "abc" }, what: 'expires_in "abc"' },
];

/** The JWT's claims; the token itself never goes into a report (it is a credential). */
function claimsOf(ctx: CheckContext, token: unknown, res: Response): JWTPayload {
  const claims = decodedClaims(token);
  if (!claims)
    ctx.expect.fail("the token is not a JWT", {
      reason: "not-jwt",
      expected: "a JWT: base64url header.payload.signature, the payload a JSON object",
      got: "a value jose cannot decode as a JWT",
      res,
    });
  return claims!;
}

/** Whether some object in the claims, the payload itself included, holds every entry of the context. */
function holdsContext(node: unknown, context: Record<string, unknown>): boolean {
  if (typeof node !== "object" || node === null) return false;
  if (!Array.isArray(node) && Object.entries(context).every(([k, v]) => isDeepStrictEqual((node as Record<string, unknown>)[k], v))) return true;
  return Object.values(node).some((child) => holdsContext(child, context));
}

/** E3: a token issued for `sent` carries it, under whatever claim name (the name is not shown), or as the payload itself. */
async function expectContextInToken(ctx: CheckContext, sent: Record<string, unknown>): Promise<void> {
  const { data, res } = await issue(ctx, { security_context: sent });
  const claims = claimsOf(ctx, data.token, res);
  ctx.expect.that(holdsContext(claims, sent), "the token's claims hold the security context sent", {
    reason: "security-context",
    expected: `a claim deep-equal to ${JSON.stringify(sent)}`,
    got: `claims ${Object.keys(claims).join(", ")}, none holding it`,
    res,
  });
}

export const tokenChecks = group("tokens", [
  {
    id: "tokens.create.schema",
    spec: "E3; Resources / Metadata token result",
    level: "MUST",
    title: "Creating a metadata token answers 200 with data.token, data.created_at and data.expires_at",
    needs: NEEDS,
    async run(ctx) {
      await issue(ctx, { security_context: securityContext(ctx) });
    },
  },
  {
    id: "tokens.lifetime.expires-in",
    spec: "E3; Resources / Metadata token result (expires_at)",
    level: "MUST",
    title: "expires_at is created_at plus the expires_in sent, in seconds",
    needs: NEEDS,
    async run(ctx) {
      for (const expiresIn of SENT_LIFETIMES_S) {
        const { data, res } = await issue(ctx, { security_context: securityContext(ctx), expires_in: expiresIn });
        const lifetime = tokenLifetimeS(data);
        ctx.expect.that(Math.abs(lifetime - expiresIn) <= SLACK_S, `with expires_in ${expiresIn}, expires_at is created_at plus ${expiresIn} s`, {
          reason: "lifetime",
          expected: `${expiresIn} s (±${SLACK_S})`,
          got: `${lifetime} s`,
          res,
        });
      }
    },
  },
  {
    id: "tokens.lifetime.default",
    spec: "E3; Limits (token lifetime default)",
    level: "MUST",
    title: "Without expires_in a token lives 86400 seconds: expires_at is created_at plus one day",
    needs: NEEDS,
    async run(ctx) {
      const { data, res } = await issue(ctx, { security_context: securityContext(ctx) });
      const lifetime = tokenLifetimeS(data);
      ctx.expect.that(Math.abs(lifetime - DEFAULT_LIFETIME_S) <= SLACK_S, "without expires_in, expires_at is created_at plus 86400 s", {
        reason: "default-lifetime",
        expected: `${DEFAULT_LIFETIME_S} s (±${SLACK_S})`,
        got: `${lifetime} s`,
        res,
      });
    },
  },
  {
    id: "tokens.jwt.decodes",
    spec: "Resources / Metadata token result (token: JWT)",
    level: "MUST",
    title: "The token is a JWT",
    needs: NEEDS,
    async run(ctx) {
      const { data, res } = await issue(ctx, { security_context: securityContext(ctx) });
      claimsOf(ctx, data.token, res);
    },
  },
  {
    id: "tokens.jwt.security-context",
    spec: "E3 (security_context: embedded in the token)",
    level: "MUST",
    title:
      "The token carries the security context sent, letters outside ASCII included, and objects and lists nested four levels deep, under whatever claim name",
    needs: NEEDS,
    async run(ctx) {
      // Nested: a server once signed the objects two levels down as their text, another emptied them three down.
      const nested = {
        tenant_id: ctx.scratch.name("tenant"),
        filters: { region: { in: ["EU", "US"] }, site: { city: { name: "Zürich", zip: [8001, { district: 1 }] } } },
      };
      for (const sent of [securityContext(ctx), nested]) await expectContextInToken(ctx, sent);
    },
  },
  {
    id: "tokens.jwt.security-context-number-edges",
    spec: "E3 (security_context: embedded in the token)",
    level: "MUST",
    title: "The token carries numbers of the security context as sent at a double's edges: its largest and smallest, exponent forms, past 32 bits",
    needs: NEEDS,
    // Apart from the nesting: a server that rounds a number (Perl's 15 digits) must not hide a context cut short, nor the reverse.
    run: (ctx) =>
      expectContextInToken(ctx, {
        tenant_id: ctx.scratch.name("tenant"),
        limits: classOf("createMetadataToken", "/security_context", "number-edges").edges[0],
      }),
  },
  {
    id: "tokens.jwt.times-agree",
    spec: "E3; Resources / Metadata token result",
    level: "SHOULD",
    title: "The JWT's exp (and iat, when present) agree with expires_at and created_at",
    needs: NEEDS,
    async run(ctx) {
      const { data, res } = await issue(ctx, { security_context: securityContext(ctx), expires_in: SENT_LIFETIMES_S[1] });
      const { exp, iat } = claimsOf(ctx, data.token, res);
      // A time without offset names its instant only up to the server's zone: exp and iat may differ from it by that zone.
      const { created, expires } = tokenTimes(data);
      const zone = expires.hasOffset ? "" : " up to a zone offset (expires_at names none)";
      ctx.expect.that(typeof exp === "number" && sameInstant(expires, exp, SLACK_S), "the JWT's exp is expires_at", {
        reason: "exp",
        expected: `exp ${expires.ms / 1000} (±${SLACK_S})${zone}`,
        got: `exp ${exp}`,
        res,
      });
      if (typeof iat === "number" && typeof exp === "number" && !created.hasOffset && !expires.hasOffset)
        ctx.expect.that(
          Math.abs(exp - iat - (expires.ms - created.ms) / 1000) <= SLACK_S,
          "the JWT's iat is created_at (in the same zone as exp and expires_at)",
          { expected: `exp - iat = ${(expires.ms - created.ms) / 1000} s (±${SLACK_S})`, got: `${exp - iat} s`, res, reason: "iat" },
        );
      else if (iat !== undefined)
        ctx.expect.that(typeof iat === "number" && sameInstant(created, iat, SLACK_S), "the JWT's iat is created_at", {
          expected: `iat ${created.ms / 1000} (±${SLACK_S})`,
          got: `iat ${iat}`,
          res,
          reason: "iat",
        });
    },
  },
  {
    id: "tokens.request.context-required",
    spec: "E3 (security_context required)",
    level: "MUST",
    title: "A request without security_context issues no token and is no server error",
    needs: NEEDS,
    async run(ctx) {
      expectNoToken(ctx, await ctx.api.post(tokenPath(ctx), { expires_in: SENT_LIFETIMES_S[1] }), "a request without security_context");
    },
  },
  {
    id: "tokens.request.context-object",
    spec: "E3 (security_context: object)",
    level: "MUST",
    title: "A security_context that is not a JSON object (an array, a string, null) issues no token and is no server error",
    needs: NEEDS,
    async run(ctx) {
      for (const value of [["tenant"], "tenant", null])
        expectNoToken(ctx, await ctx.api.post(tokenPath(ctx), { security_context: value }), `security_context ${JSON.stringify(value)}`);
    },
  },
  {
    id: "tokens.request.expires-in-number",
    spec: "E3 (expires_in: number)",
    level: "MUST",
    title: "An expires_in that is not a number issues no token and is no server error",
    needs: NEEDS,
    async run(ctx) {
      expectNoToken(ctx, await ctx.api.post(tokenPath(ctx), { security_context: securityContext(ctx), expires_in: "abc" }), 'expires_in "abc"');
    },
  },
  {
    id: "tokens.request.broken-body-4xx",
    spec: "E3 (security_context: object, required; expires_in: number)",
    // SHOULD: the spec names no status for a broken E3 body; a request error is most likely a 4xx.
    level: "SHOULD",
    title: "A request without security_context, with one that is not a JSON object, or with an expires_in that is not a number is rejected with a 4xx",
    needs: NEEDS,
    async run(ctx) {
      for (const { body, what } of brokenBodies(ctx)) expectRejected(ctx, await ctx.api.post(tokenPath(ctx), body), `${what} is rejected`);
    },
  },
  {
    id: "tokens.request.expires-in-positive",
    spec: "E3 (expires_in: seconds)",
    level: "SHOULD",
    title: "An expires_in of zero or less is rejected with a 4xx",
    needs: NEEDS,
    async run(ctx) {
      for (const value of [0, -5])
        expectRejected(
          ctx,
          await ctx.api.post(tokenPath(ctx), { security_context: securityContext(ctx), expires_in: value }),
          `expires_in ${value} is rejected`,
        );
    },
  },
  {
    id: "tokens.auth.not-an-api-key",
    spec: "Authentication 3; E3 (valid only for metadata endpoints); Base address (two prefixes)",
    level: "MUST",
    title:
      "A metadata token is refused (4xx) on every management endpoint it is tried on: E1, E2, E5, E8, E9, E13 and the branches list under /build/api/v1, and the writes E10, E11 and E12",
    needs: NEEDS,
    async run(ctx) {
      const { data } = await issue(ctx, { security_context: securityContext(ctx) });
      // The curl line names the token by this variable, never by its value.
      const metadataOnly = ctx.api.with({ role: "metadata token", value: String(data.token), envVar: "METADATA_TOKEN" });
      for (const [endpoint, path] of await managementReads(ctx)) {
        const res = await metadataOnly.get(path);
        ctx.expect.clientError(res, `${endpoint} (GET ${path}) with a metadata token instead of an API key is refused`, "metadata-token-refused");
      }
      // Writes too, on a workbook of the run's own: a server may check a token's scope on reads only. What a wrong 2xx made, the door removes.
      const dep = ctx.fixture("deployment").id;
      const { workbook } = await ownWorkbook(ctx, ctx.api, dep);
      const writes: [string, () => Promise<Response>][] = [
        [
          "E11",
          () => metadataOnly.call("upsertWorkbookBySlug", { deploymentId: dep, slug: ctx.scratch.slug("jwt") }, { body: { name: ctx.scratch.name("jwt") } }),
        ],
        ["E10", () => metadataOnly.call("duplicateWorkbook", { deploymentId: dep, workbookId: workbook.id })],
        [
          "E12",
          () =>
            metadataOnly.call("bulkMoveWorkspaceItems", { deploymentId: dep }, { body: { items: [{ type: "WORKBOOK", id: workbook.id }], folderId: null } }),
        ],
      ];
      for (const [endpoint, send] of writes) {
        const res = await send();
        ctx.expect.clientError(
          res,
          `${endpoint} (${res.exchange.method} ${new URL(res.exchange.url).pathname}) with a metadata token instead of an API key is refused`,
          "metadata-token-refused",
        );
      }
    },
  },
]);
