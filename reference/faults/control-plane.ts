import { cleanBehaviour } from "../behaviour.js";
import { type App, type Fault, HttpError, ok, type Reply } from "../http.js";
import { deploymentOf } from "../routes/common.js";
import type { BranchRecord, DeploymentRecord } from "../store.js";
import { notFound, type Policy, refusalAnsweredAs } from "./policies.js";

const clean = cleanBehaviour;

/** A policy for the E4 body naming no branch (refused 400 once the rest of it is valid), given the deployment's first shared branch. */
const whenNoBranchNamed =
  (act: (shared: BranchRecord, r: Parameters<Policy>[0], refusal: HttpError) => Reply | Promise<Reply>): Policy =>
  async (r) => {
    try {
      return await r.next();
    } catch (err) {
      const refusal = err instanceof HttpError && err.status === 400 && /^name the branch/.test(err.message) ? err : undefined;
      const shared = refusal && deploymentOf(r.app, r.req).branches.find((b) => b.kind === "shared");
      if (!shared) throw err;
      return act(shared, r, refusal);
    }
  };

/** E4: a body naming no branch acts on the deployment's first shared branch. */
export const unnamedBranchIsFirstShared = whenNoBranchNamed((shared, { req, next }) => {
  req.body = { ...req.body, branchName: shared.name };
  return next();
});

/** E4: the flag a toggle leaves, from the one before it and the one asked (the handler sets the one asked). */
const stagingFlagBecomes =
  (flag: (current: boolean, requested: boolean) => boolean): Policy =>
  async ({ req, app, next }) => {
    const dep = deploymentOf(app, req);
    const before = new Map(dep.branches.map((b) => [b.id, b.isStagingEnvironmentEnabled]));
    const reply = await next();
    const branch = reply.status === 200 ? dep.branches.find((b) => b.id === (reply.body as { data: { id: number } }).data.id) : undefined;
    if (!branch) return reply;
    branch.isStagingEnvironmentEnabled = flag(before.get(branch.id)!, req.body.enabled);
    const { data } = reply.body as { data: object };
    return ok({ data: { ...data, isStagingEnvironmentEnabled: branch.isStagingEnvironmentEnabled } });
  };

type Settings = DeploymentRecord["settings"];

/** E6: a field the handler would refuse, kept out of its sight when `bypasses` says so, then stored as `store` says once the rest of the body is applied. */
const storedPastTheHandler =
  (
    field: string,
    bypasses: (value: unknown) => boolean,
    store: (settings: Settings, value: any, rest: Record<string, unknown>, app: App) => Settings,
  ): Policy =>
  async ({ req, app, next }) => {
    const value = req.body?.[field];
    if (!bypasses(value)) return next();
    const { [field]: _bypassed, ...rest } = req.body;
    req.body = rest;
    const reply = await next();
    if (reply.status !== 200) return reply;
    const dep = deploymentOf(app, req);
    dep.settings = store(dep.settings, value, rest, app);
    return ok({ ...(reply.body as object), ...dep.settings });
  };

/** Faults of the control-plane writes: metadata tokens (E3), the staging toggle (E4), deployment update (E6). */
export const controlPlaneFaults: Fault[] = [
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
    name: "staging-not-listed",
    breaks: "States and transitions (Branch); E2",
    description: "the toggle answers the flag on, but E2 lists no staging environment",
    because: { "staging.enable.by-name": "state", "staging.enable.by-id": "state" },
    behaviour: { environmentsOf: (dep) => clean.environmentsOf(dep).filter((e) => e.type !== "staging") },
  },
  {
    name: "staging-branch-id-not-found",
    breaks: "E4 (branchId)",
    description: "a branch named by branchId is never found",
    because: { "staging.enable.by-id": "status" },
    behaviour: { branchWithId: () => undefined },
  },
  {
    name: "staging-disable-ignored",
    breaks: "States and transitions (Branch: enabled=false)",
    description: "enabled=false leaves an enabled staging environment on",
    because: { "staging.disable.clears": "answer-flag" },
    routes: ["E4"],
    handle: stagingFlagBecomes((current, requested) => current || requested),
  },
  {
    name: "staging-enable-toggles",
    breaks: "E4; States and transitions (Branch)",
    description: "enabled=true flips the flag, so a second enable switches the staging environment off",
    because: { "staging.enable.idempotent": "answer-flag" },
    routes: ["E4"],
    handle: stagingFlagBecomes((current, requested) => (requested ? !current : false)),
  },
  {
    name: "staging-personal-branch-accepted",
    breaks: "E4; States and transitions (Branch)",
    description: "a personal development branch can have a staging environment",
    because: { "staging.reject.personal-branch": "client-error" },
    behaviour: { stagingAllowed: (branch) => branch.kind !== "production" },
  },
  {
    name: "staging-production-branch-accepted",
    breaks: "E4; States and transitions (Branch)",
    description: "the production branch can have a staging environment",
    because: { "staging.reject.production-branch": "client-error" },
    behaviour: { stagingAllowed: (branch) => branch.kind !== "personal" },
  },
  {
    name: "staging-implied-branch",
    breaks: "E4 (one of branchName or branchId)",
    description: "a body naming no branch toggles the first shared branch",
    because: { "staging.request.branch-required": "client-error" },
    routes: ["E4"],
    handle: unnamedBranchIsFirstShared,
  },
  {
    name: "staging-unknown-branch-400",
    breaks: "E4 (published docs: unknown branch 404)",
    description: "a branch the deployment does not have is a 400, not a 404",
    because: { "staging.request.unknown-branch-404": "status" },
    routes: ["E4"],
    handle: refusalAnsweredAs(400, notFound("branch")),
  },
  {
    name: "version-v-prefix-rejected",
    breaks: "E6 rule 1",
    description: "a version written `v1.7.20` is not recognised",
    because: { "deployment-update.version.listed-forms": "status" },
    behaviour: { resolveVersion: (input, versions, repository) => (/^v/i.test(input.trim()) ? undefined : clean.resolveVersion(input, versions, repository)) },
  },
  {
    name: "version-image-reference-rejected",
    breaks: "E6 rule 1",
    description: "a version written as its image-style reference is not recognised",
    because: { "deployment-update.version.listed-forms": "status" },
    behaviour: { resolveVersion: (input, versions, repository) => (input.includes(":") ? undefined : clean.resolveVersion(input, versions, repository)) },
  },
  {
    name: "version-unlisted-accepted",
    breaks: "E6 rule 1; Errors 2",
    description: "a releaseChannelVersion that is not listed switches to the last listed version instead of a 400",
    because: { "deployment-update.version.unlisted-rejected": "status" },
    behaviour: { resolveVersion: (input, versions, repository) => clean.resolveVersion(input, versions, repository) ?? versions.at(-1) },
  },
  {
    name: "channel-switch-not-to-latest",
    breaks: "E6 rule 2",
    description: "releaseChannel alone moves to the first version listed for that channel, not its latest",
    because: { "deployment-update.channel.moves-to-latest": "current-version" },
    behaviour: { channelMoveTarget: (channel, entries) => entries.find((e) => e.releaseChannel === channel) },
  },
  {
    name: "template-variables-replaced",
    breaks: "E6 (templateVariables merged key by key)",
    description: "templateVariables sent replace the stored ones wholesale",
    because: { "deployment-update.merge.template-variables": "merged-key-by-key" },
    behaviour: { mergeSettings: (stored, patch) => ({ ...stored, ...patch }) },
  },
  {
    name: "omitted-settings-reset",
    breaks: "E6 (partial merge)",
    description: "an update resets every field it does not send to an empty value",
    because: { "deployment-update.merge.omitted-fields-kept": "kept:cloudProvider" },
    behaviour: {
      mergeSettings: (stored, patch) => ({
        ...stored,
        cloudProvider: "",
        region: "",
        template: "",
        templateVariables: {},
        defaultLaunchpadViewGroup: null,
        launchpadTabs: [],
        ...patch,
      }),
    },
  },
  {
    name: "image-settable",
    breaks: "E6 rule 3",
    description: "a body's image is stored as the deployment's image",
    because: { "deployment-update.image.not-settable": "image-ignored" },
    routes: ["E6"],
    // A version sent resolves the image, as it would over an image stored as sent.
    handle: storedPastTheHandler(
      "image",
      (v) => typeof v === "string",
      (settings, image, rest) => (rest.releaseChannelVersion === undefined && rest.releaseChannel === undefined ? { ...settings, image } : settings),
    ),
  },
  {
    name: "template-variable-values-untyped",
    breaks: "E6 (templateVariables: values are strings)",
    description: "templateVariables are taken whatever their values (a number, an object), as long as they come as an object",
    because: { "deployment-update.negative.mistyped-fields": "client-error" },
    routes: ["E6"],
    handle: storedPastTheHandler(
      "templateVariables",
      (v) => typeof v === "object" && v !== null && !Array.isArray(v) && !Object.values(v).every((x) => typeof x === "string"),
      (settings, templateVariables, _rest, app) => app.b.mergeSettings(settings, { templateVariables }),
    ),
  },
  {
    name: "staging-unnamed-refused-after-applying",
    breaks: "E4 (one of branchName or branchId)",
    description: "a toggle naming no branch is refused with a 400, but only after it was applied to the first shared branch",
    because: { "staging.request.branch-required": "not-applied" },
    routes: ["E4"],
    handle: whenNoBranchNamed((shared, _r, refusal) => {
      shared.isStagingEnvironmentEnabled = !shared.isStagingEnvironmentEnabled;
      throw refusal;
    }),
  },
];
