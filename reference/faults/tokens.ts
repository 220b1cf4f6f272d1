import { clean } from "./kit/control-plane.js";
import { LIFETIME_CAP_SECONDS } from "./kit/input-domain.js";
import { type Behaviour, cleanBehaviour } from "../behaviour.js";
import type { Fault } from "../http.js";

/** The faults of the group tokens (suites/tokens/): each makes a check of it fail, for the reason its `because` names. */
/** An authentication that takes a bearer JWT (a metadata token) as the first user's API key on these operations only. */
const jwtTakenOn =
  (operations: string[]): Behaviour["authenticate"] =>
  (header, store, request) =>
    cleanBehaviour.authenticate(header, store) ??
    (/^Bearer eyJ/.test(header ?? "") && operations.includes(request?.operation ?? "") ? store.users[0] : undefined);

export const tokensFaults: Fault[] = [
  {
    name: "token-created-at-missing",
    breaks: "E3; Resources / Metadata token result",
    description: "the metadata token answer lacks created_at",
    because: { "tokens.create.schema": "schema:MetadataTokenResponse" },
    routes: ["E3"],
    respond: ({ status, body }) => (status === 200 ? { data: { ...body.data, created_at: undefined } } : body),
  },
  {
    name: "token-expires-at-ignores-expires-in",
    breaks: "Resources / Metadata token result (expires_at)",
    description: "expires_at is always created_at plus one day, whatever expires_in says",
    because: { "tokens.lifetime.expires-in": "lifetime" },
    routes: ["E3"],
    respond: ({ status, body }) =>
      status === 200 ? { data: { ...body.data, expires_at: new Date(Date.parse(body.data.created_at) + 86_400_000).toISOString() } } : body,
  },
  {
    name: "token-lifetime-default-3600",
    breaks: "E3; Limits (token lifetime default 86400)",
    description: "a token without expires_in lives one hour",
    because: { "tokens.lifetime.default": "default-lifetime" },
    routes: ["E3"],
    handle: ({ req, next }) => {
      if (typeof req.body === "object" && req.body !== null && !Array.isArray(req.body) && req.body.expires_in === undefined)
        req.body = { ...req.body, expires_in: 3600 };
      return next();
    },
  },
  {
    name: "token-opaque",
    breaks: "Resources / Metadata token result (token: JWT)",
    description: "the token is an opaque random string, not a JWT",
    because: { "tokens.jwt.decodes": "not-jwt" },
    routes: ["E3"],
    respond: ({ status, body }) =>
      status === 200 ? { data: { ...body.data, token: "mt_" + Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("hex") } } : body,
  },
  {
    name: "token-without-context",
    breaks: "E3 (security_context embedded in the token)",
    description: "the JWT carries only iat and exp, not the security context",
    because: { "tokens.jwt.security-context": "security-context" },
    behaviour: { tokenClaims: (_context, issuedAt, lifetime) => ({ iat: issuedAt, exp: issuedAt + lifetime }) },
  },
  {
    name: "token-context-double-encoded",
    breaks: "E3 (security_context embedded in the token)",
    description: "the context's UTF-8 bytes are read as Latin-1 before they are signed: an ASCII context is right, `Zürich` becomes `ZÃ¼rich`",
    because: { "tokens.jwt.security-context": "security-context" },
    behaviour: {
      tokenClaims: (context, issuedAt, lifetime) =>
        clean.tokenClaims(JSON.parse(Buffer.from(JSON.stringify(context), "utf8").toString("latin1")), issuedAt, lifetime),
    },
  },
  {
    name: "token-context-flattened-below-first-level",
    breaks: "E3 (security_context embedded in the token)",
    description:
      'objects nested two levels down in the context are signed as their text (a map\'s toString): `{filters: {region: {in: ["EU"]}}}` becomes `{filters: {region: "{in=[EU]}"}}`; a flat or one-level context is right',
    because: { "tokens.jwt.security-context": "security-context" },
    behaviour: {
      tokenClaims: (context, issuedAt, lifetime) => clean.tokenClaims(flattenedBelowFirstLevel(context), issuedAt, lifetime),
    },
  },
  {
    name: "token-context-emptied-below-second-level",
    breaks: "E3 (security_context embedded in the token)",
    description: "a copy of the context that keeps two levels: an object three levels down is signed as {}",
    because: { "tokens.jwt.security-context": "security-context" },
    behaviour: {
      tokenClaims: (context, issuedAt, lifetime) => clean.tokenClaims(keptToDepth(context, 2), issuedAt, lifetime),
    },
  },
  {
    name: "token-context-numbers-rounded",
    breaks: "E3 (security_context embedded in the token)",
    description: "numbers of the context are signed with 15 significant digits: 9007199254740991 and 5e-324 come back changed",
    because: { "tokens.jwt.security-context-number-edges": "security-context" },
    behaviour: {
      tokenClaims: (context, issuedAt, lifetime) => clean.tokenClaims(roundedNumbers(context) as Record<string, unknown>, issuedAt, lifetime),
    },
  },
  {
    name: "token-exp-disagrees",
    breaks: "E3; Resources / Metadata token result",
    description: "the JWT's exp is an hour later than the expires_at the answer shows",
    because: { "tokens.jwt.times-agree": "exp" },
    behaviour: { tokenClaims: (context, issuedAt, lifetime) => ({ ...clean.tokenClaims(context, issuedAt, lifetime), exp: issuedAt + lifetime + 3600 }) },
  },
  {
    name: "token-context-optional",
    breaks: "E3 (security_context required)",
    description: "a request without security_context gets a token scoped by an empty context",
    because: { "tokens.request.context-required": "no-token", "tokens.request.broken-body-4xx": "client-error" },
    behaviour: { validSecurityContext: (value) => value === undefined || clean.validSecurityContext(value) },
  },
  {
    name: "token-context-type-unchecked",
    breaks: "E3 (security_context: object)",
    description: "any security_context is taken: an array, a string, null",
    because: { "tokens.request.context-object": "no-token", "tokens.request.broken-body-4xx": "client-error" },
    behaviour: { validSecurityContext: (value) => value !== undefined },
  },
  {
    name: "token-expires-in-string-ignored",
    breaks: "E3 (expires_in: number)",
    description: "an expires_in that is a string is ignored (the default lifetime applies) instead of rejected",
    because: { "tokens.request.expires-in-number": "no-token", "tokens.request.broken-body-4xx": "client-error" },
    behaviour: { expiresInProblem: (value) => (typeof value === "string" ? undefined : clean.expiresInProblem(value)) },
  },
  {
    name: "token-expires-in-non-positive-accepted",
    breaks: "E3 (expires_in: seconds)",
    description: "expires_in 0 or below is taken, giving a token that is expired from the start",
    because: { "tokens.request.expires-in-positive": "client-error" },
    behaviour: { expiresInProblem: (value) => (typeof value === "number" ? undefined : clean.expiresInProblem(value)) },
  },
  {
    name: "metadata-token-accepted-as-api-key",
    breaks: "Authentication 2 and 3",
    description: "any bearer JWT is taken as the first user's API key",
    because: { "tokens.auth.not-an-api-key": "metadata-token-refused" },
    behaviour: { authenticate: (header, store) => clean.authenticate(header, store) ?? (/^Bearer eyJ/.test(header ?? "") ? store.users[0] : undefined) },
  },
  {
    name: "token-lifetime-capped",
    breaks: "E3; Resources / Metadata token result",
    description: "expires_in above thirty days is silently capped: expires_at is created_at plus thirty days",
    because: { "tokens.lifetime.any-expires-in": "lifetime" },
    routes: ["E3"],
    respond: ({ status, body }) => {
      const data = body?.data;
      if (status !== 200 || !data) return body;
      const created = Date.parse(data.created_at);
      if (Date.parse(data.expires_at) - created <= LIFETIME_CAP_SECONDS * 1000) return body;
      return { ...body, data: { ...data, expires_at: new Date(created + LIFETIME_CAP_SECONDS * 1000).toISOString() } };
    },
  },
  {
    name: "jwt-exp-ignores-expires-in",
    breaks: "E3 (token: JWT, valid for expires_in seconds)",
    description: "the JWT's exp is an hour after its iat whatever expires_in asks (a JWT library's default); expires_at is right",
    because: { "tokens.jwt.any-lifetime": "jwt-lifetime" },
    behaviour: { tokenClaims: (securityContext, issuedAt) => ({ securityContext, iat: issuedAt, exp: issuedAt + 3600 }) },
  },
  {
    name: "token-lifetime-off-by-one-above-1000",
    breaks: "E3; Resources / Metadata token result",
    description: "a metadata token asked to live more than 1000 s lives one second longer (expires_at and the JWT's exp)",
    because: { "tokens.lifetime.any-expires-in": "lifetime" },
    routes: ["E3"],
    handle: ({ req, next }) => {
      const asked = req.body?.expires_in;
      if (typeof asked === "number" && asked > 1000) req.body = { ...req.body, expires_in: asked + 1 };
      return next();
    },
  },
  {
    name: "token-expires-in-numeric-string",
    breaks: "E3 (expires_in: number)",
    description: 'expires_in sent as a numeric string ("900") is accepted, and the token gets the default lifetime',
    because: { "tokens.negative.broken-body": "lifetime-spelled", "tokens.negative.broken-body-4xx": "lifetime-spelled" },
    behaviour: { expiresInProblem: (v) => (typeof v === "string" && /^\d+$/.test(v) ? undefined : cleanBehaviour.expiresInProblem(v)) },
  },
  {
    name: "token-expires-in-large-negative-accepted",
    breaks: "E3 (expires_in: seconds)",
    description: "an expires_in below -1000 is accepted (only small non-positive values are refused); the token is born expired",
    because: { "tokens.negative.non-positive-lifetime": "client-error" },
    behaviour: { expiresInProblem: (v) => (typeof v === "number" && v < -1000 ? undefined : cleanBehaviour.expiresInProblem(v)) },
  },
  {
    name: "bad-body-answered-200",
    breaks: "Errors 2 (a request error is a 4xx; no status named for a broken E3, E4, E10, E11 or E12 body)",
    description:
      "a broken body on E3, E4, E10, E11 or E12 is answered 200 with the error message and nothing applied: the MUST (not applied, no 5xx) holds, the 4xx the SHOULD asks for is missing",
    because: {
      "tokens.request.broken-body-4xx": "client-error",
      "tokens.negative.broken-body-4xx": "client-error",
      "staging.negative.broken-body-4xx": "client-error",
      "upsert.draft.invalid-widget-4xx": "client-error",
      "workspace.negative.broken-body-4xx": "client-error",
    },
    spares: [
      "upsert.draft.bad-widget-type-rejected",
      "upsert.draft.widget-without-position-rejected",
      "tokens.negative.broken-body",
      "staging.negative.broken-body",
      "workspace.negative.broken-body",
      "tokens.request.context-required",
      "tokens.request.context-object",
      "tokens.request.expires-in-number",
    ],
    behaviour: {
      requestErrorReply: (spec, status, body) => ({ status: status === 400 && ["E3", "E4", "E10", "E11", "E12"].includes(spec ?? "") ? 200 : status, body }),
    },
  },
  {
    name: "metadata-token-accepted-on-build",
    breaks: "Authentication 3; E3 (valid only for metadata endpoints)",
    description:
      "a bearer JWT (a metadata token) is taken as the first user's API key on the branches list under /build/api/v1; every /api/v1 endpoint refuses it",
    because: { "tokens.auth.not-an-api-key": "metadata-token-refused" },
    behaviour: {
      authenticate: jwtTakenOn(["listBranches"]),
    },
  },
  {
    name: "metadata-token-accepted-on-env-vars",
    breaks: "Authentication 3",
    description: "a bearer JWT (a metadata token) is taken as the first user's API key on the env-vars list (E13) only; E1 and the rest refuse it",
    because: { "tokens.auth.not-an-api-key": "metadata-token-refused" },
    behaviour: {
      authenticate: jwtTakenOn(["listEnvVars", "setEnvVars"]),
    },
  },
  {
    name: "metadata-token-accepted-on-writes",
    breaks: "Authentication 3; E3 (valid only for metadata endpoints)",
    description: "a bearer JWT (a metadata token) is taken as the first user's API key on the workspace writes (E10, E11, E12); every read refuses it",
    because: { "tokens.auth.not-an-api-key": "metadata-token-refused" },
    behaviour: {
      authenticate: jwtTakenOn(["duplicateWorkbook", "upsertWorkbookBySlug", "bulkMoveWorkspaceItems"]),
    },
  },
];

/** A context whose objects two levels down are replaced by their text, as a Map's toString writes it. */
function flattenedBelowFirstLevel(context: Record<string, unknown>): Record<string, unknown> {
  const text = (v: unknown): string =>
    Array.isArray(v)
      ? `[${v.map(text).join(", ")}]`
      : v && typeof v === "object"
        ? `{${Object.entries(v)
            .map(([k, x]) => `${k}=${text(x)}`)
            .join(", ")}}`
        : String(v);
  const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
  return Object.fromEntries(
    Object.entries(context).map(([k, v]) => [k, isObject(v) ? Object.fromEntries(Object.entries(v).map(([k2, v2]) => [k2, isObject(v2) ? text(v2) : v2])) : v]),
  );
}

/** The context as a copy that keeps `depth` levels of objects: deeper objects are empty. */
function keptToDepth(context: Record<string, unknown>, depth: number): Record<string, unknown> {
  const copy = (v: unknown, level: number): unknown =>
    Array.isArray(v)
      ? v.map((x) => copy(x, level))
      : v && typeof v === "object"
        ? level >= depth
          ? {}
          : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x, level + 1)]))
        : v;
  return Object.fromEntries(Object.entries(context).map(([k, v]) => [k, copy(v, 1)]));
}

/** Every number of a value written with 15 significant digits, as some JSON encoders do. */
function roundedNumbers(v: unknown): unknown {
  if (typeof v === "number") return Number(v.toPrecision(15));
  if (Array.isArray(v)) return v.map(roundedNumbers);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, roundedNumbers(x)]));
  return v;
}
