import fc from "fast-check";
import type { Api } from "../core/api.js";
import { groupedById, type CheckSpec } from "../core/check.js";
import type { CheckContext } from "../core/context.js";
import type { Response } from "../core/http.js";
import { DEPLOYMENTS_PATH, deploymentsOf } from "../core/deployments.js";
import { NotExercised } from "../core/outcome.js";
import { walkAgainUntil, walkCursor, walkOffset, wholeList } from "../core/pagination.js";
import { DEFAULT_REQUEST_BUDGET, forAll, MIN_RUNS } from "../core/property.js";
import { secondsBetween } from "../core/timestamps.js";
import { ENV_VARS, envVarName, holdsMarker, PROPERTY_ENV_VARS, nearMissVersionForm, pageSize, rejectedVersionForm, securityContext, secretValue, smallestPageSize } from "../generators/index.js";
import { expectPagesCapped, expectWalkCovers } from "./lib/cursor-walk.js";
import { currentEnvironments, legacyEnvironments, offsetPaged } from "./lib/environment-list.js";
import { claimsOf, tokenPath, tokenTimes } from "./lib/metadata-token.js";
import { keepSettings } from "./lib/deployment-settings.js";
import { currentVersions } from "./lib/version-list.js";
import { pathTo } from "../core/spec/client.js";
import { MASK } from "../core/spec/operations.js";

const WHOLE_PAGE = 100;
/** The default offset page size: a server must serve pages this long, whatever cap it has above. */
const SURE_LIMIT = 20;
/** The largest page a property asks for: no maximum is shown, and a thousand items keep an answer far below what the tester reads (8 MiB). */
const LARGEST_PAGE = 1000;
const PUT_ACCEPTED = [200, 201, 204];

const varsPath = (dep: string) => pathTo("listEnvVars", { deploymentId: dep });

interface CursorList {
  what: string;
  path: string;
  key: (item: any) => string;
  /** The whole list, read once at a large page size before the trials. */
  keys: string[];
}

/**
 * The deployment's cursor lists (E2, E8, E13) that answer with items and a pageInfo object, read
 * whole. E2's control-plane shape and a null pageInfo offer no cursor to walk: such a list is left
 * out, not failed.
 */
async function cursorLists(api: Api, dep: string): Promise<CursorList[]> {
  const lists = [
    { what: "environment", path: pathTo("listEnvironments", { deploymentId: dep }), key: (e: any) => String(e?.id) },
    { what: "workbook", path: pathTo("listWorkbooks", { deploymentId: dep }), key: (w: any) => String(w?.id) },
    { what: "variable", path: varsPath(dep), key: (v: any) => String(v?.name) },
  ];
  const out: CursorList[] = [];
  for (const l of lists) {
    // The server's default page: no maximum of first is shown, so none is asked for here.
    const page = await api.get(l.path);
    if (page.status !== 200 || !page.isJson || !Array.isArray(page.body?.items) || !page.body?.pageInfo || typeof page.body.pageInfo !== "object") continue;
    const walk = await walkCursor(api, l.path, { first: WHOLE_PAGE });
    // A list longer than the page budget (a partial walk) has no whole to compare walks with.
    const keys = walk.items.map(l.key);
    if (keys.length && !walk.partial) out.push({ ...l, keys });
  }
  return out;
}

/** A variable as the list shows it now, looked up by name over every page. */
async function listedVariable(api: Api, dep: string, name: string): Promise<{ value: unknown; res: Response } | undefined> {
  const named = (items: any[]) => items.some((v) => v?.name === name);
  const read = () => walkCursor(api, varsPath(dep), { first: WHOLE_PAGE, endpoint: "E13", until: named });
  const walk = await walkAgainUntil(read, (w) => named(w.items));
  for (const p of walk.pages) {
    const found = p.items.find((v: any) => v?.name === name);
    if (found) return { value: found.value, res: p.res };
  }
  return undefined;
}

/**
 * Resources / Environment variable, for names set through PUT env-vars (published docs): the value reads
 * [ENCRYPTED] exactly when `masked(name)`. Only names `select` keeps are tried. The names are the
 * tool's fixed set (generators/domain.ts): they cannot be removed, so every run reuses the same ones.
 */
function maskingProperty(o: Pick<CheckSpec, "id" | "level" | "title"> & { select: (name: string) => boolean; masked: (name: string) => boolean }): CheckSpec {
  return {
    ...o,
    spec: "Resources / Environment variable; E13; PUT env-vars (E14, body in the published docs)",
    kind: "property",
    needs: ["writes", "unremovable-writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      // Every name the property may draw is set first: whatever cases the seed draws, a run leaves the same variables.
      const names = [ENV_VARS.probe, ...PROPERTY_ENV_VARS.filter(o.select)];
      const probe = await ctx.api.call("setEnvVars", { deploymentId: dep }, { body: { env_variables: names.map((name) => ({ name, value: "probe" })) } });
      ctx.require(probe, "E14", "setting the tool's variables (PUT env-vars), to see how names set here are masked", () => true);
      const variable = fc.record({ name: envVarName(), value: secretValue() }).filter((v) => o.select(v.name));
      await forAll(ctx, variable, async ({ name, value }, api) => {
        const put = await api.call("setEnvVars", { deploymentId: dep }, { body: { env_variables: [{ name, value }] } });
        ctx.expect.status(put, PUT_ACCEPTED, `PUT env-vars with variable ${name} (it took ${ENV_VARS.probe} before)`);
        // published docs: the PUT answers with the list shape; every variable it shows, in items and in data, obeys the rule too.
        const wrong = answeredVariables(put).filter((v) => o.select(v.name) && (v.value === MASK) !== o.masked(v.name));
        ctx.expect.that(wrong.length === 0, "in the PUT env-vars answer, each variable reads [ENCRYPTED] exactly when its name holds a marker", { reason: "put-answer-masking", expected: "secret-named values masked, others not", got: wrong.map((v) => `${v.name} (in ${v.where})`), res: put });
        const listed = await listedVariable(api, dep, name);
        if (!listed) return ctx.expect.fail(`the variable ${name} just set is not in the list (E13)`, { expected: `an item named ${name}`, got: "none", res: put, reason: "listed-once" });
        const masked = o.masked(name);
        ctx.expect.that((listed.value === MASK) === masked, masked ? `${name} holds a marker: its value reads ${MASK}` : `${name} holds no marker: its value is not masked`, { reason: "masking", expected: masked ? MASK : "the value set", got: listed.value, res: listed.res });
      });
    },
  };
}

/** The variables a PUT env-vars answer shows, in items and in the deprecated data, with where each was read. */
function answeredVariables(put: Response): { name: string; value: unknown; where: string }[] {
  const body = put.isJson ? put.body : undefined;
  return (["items", "data"] as const).flatMap((where) => (Array.isArray(body?.[where]) ? body[where] : []).filter((v: any) => typeof v?.name === "string").map((v: any) => ({ name: v.name, value: v.value, where })));
}

/** E3 with a generated body: the 200 answer's data, after its schema is checked. */
async function issueToken(ctx: CheckContext, api: Api, body: { security_context: Record<string, unknown>; expires_in: number }): Promise<{ data: any; res: Response }> {
  const res = await api.post(tokenPath(ctx), body);
  ctx.require(res, "E3", "issuing a metadata token");
  return { data: ctx.expect.ok(res, "MetadataTokenResponse").data, res };
}

const lifetimes = fc.record({ security_context: securityContext(), expires_in: fc.integer({ min: 1, max: 3600 }) });
/** published docs: one published schema bounds expires_in to 1..3600; a token is a credential, so issuing one is a write. */
const TOKEN_NEEDS: CheckSpec["needs"] = ["writes", "fixture:deployment", "fixture:environment"];

export const propertyChecks = groupedById([
  {
    id: "pagination.cursor.any-page-size",
    spec: "Pagination styles 2; E2, E8, E13",
    level: "MUST",
    title: "For first=1 and any page size from 1 to n+2, every page of a cursor walk holds at most first items, and the walk yields every item of the list exactly once",
    kind: "property",
    needs: ["fixture:deployment"],
    async run(ctx) {
      const lists = await cursorLists(ctx.api, ctx.fixture("deployment").id);
      if (!lists.length) throw new NotExercised("none of E2, E8, E13 answers a non-empty list with items and pageInfo: there is no cursor to walk");
      // first=1, the stated minimum, walked to the end of every list: the edge a drawn size may miss.
      for (const l of lists) {
        const walk = await walkCursor(ctx.api, l.path, { first: 1, maxPages: l.keys.length + 2 });
        expectPagesCapped(ctx.expect, walk.pages, "first", 1, l.what);
        if (!walk.partial) expectWalkCovers(ctx.expect, walk.items.map(l.key), l.keys, `${l.what} (first=1)`, walk.pages.at(-1)?.res);
      }
      // A trial walks one list at a few page sizes; a long list from a size that keeps a walk within 50 pages (and the page budget).
      // A page of at most LARGEST_PAGE items: a whole huge list in one answer would outgrow what the tester reads.
      const walks = fc.oneof(...lists.map((l) => fc.uniqueArray(pageSize(l.keys.length, { maxPages: Math.min(50, ctx.api.pageBudget), max: LARGEST_PAGE }), { minLength: 1, maxLength: 3 }).map((sizes) => ({ list: l.what, sizes }))));
      // A trial is whole walks, a page a request: twice the default budget, so that the walks reach the small page sizes.
      await forAll(ctx, walks, async ({ list, sizes }, api) => {
        const l = lists.find((x) => x.what === list)!;
        for (const first of sizes) {
          const walk = await walkCursor(api, l.path, { first, listLength: l.keys.length });
          expectPagesCapped(ctx.expect, walk.pages, "first", walk.first ?? first, l.what);
          expectWalkCovers(ctx.expect, walk.items.map(l.key), l.keys, `${l.what} (first=${first})`, walk.pages.at(-1)?.res);
        }
      }, { maxRequests: 300 });
    },
  },
  {
    id: "deployments.list.any-limit",
    spec: "Pagination styles 1; E1",
    level: "MUST",
    title: "For any limit from 1 to n+2, every page of an offset walk of the deployments holds at most limit deployments, and the walk yields every deployment exactly once",
    kind: "property",
    async run(ctx) {
      const whole = wholeList(await walkOffset(ctx.api, DEPLOYMENTS_PATH, SURE_LIMIT, deploymentsOf), "deployments").items.map((d: any) => String(d?.id));
      if (!whole.length) throw new NotExercised("the deployments list (E1) is empty: there is nothing to walk");
      // No maximum limit is published, and a walk ends at a short page: limits stay at or below the default.
      const sizes = { max: SURE_LIMIT };
      // Each trial walks the whole list: a long one (a thousand deployments) costs tens of pages a
      // trial, and the budget affords the runs a property needs (MIN_RUNS, one case kept for the replay).
      const longestWalk = Math.ceil(whole.length / smallestPageSize(whole.length, sizes)) + 2;
      const maxRequests = Math.max(DEFAULT_REQUEST_BUDGET, (MIN_RUNS + 2) * longestWalk);
      await forAll(ctx, pageSize(whole.length, sizes), async (limit, api) => {
        const walk = await walkOffset(api, DEPLOYMENTS_PATH, limit, deploymentsOf, { listLength: whole.length });
        expectPagesCapped(ctx.expect, walk.pages.map((res) => ({ items: deploymentsOf(res.body) ?? [], res })), "limit", walk.limit, "deployment");
        expectWalkCovers(ctx.expect, walk.items.map((d: any) => String(d?.id)), whole, "deployment", walk.pages.at(-1));
      }, { maxRequests });
    },
  },
  {
    id: "environments.legacy.any-limit",
    spec: "Pagination styles 1; E2 (offset and limit; deprecated data)",
    level: "MUST",
    title: "For any limit from 1 to n+2, every page of an offset walk of the environments' deprecated data holds at most limit environments, and the walk yields every environment exactly once",
    kind: "property",
    needs: ["fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const path = pathTo("listEnvironments", { deploymentId: dep });
      const whole = (await currentEnvironments(ctx.api, ctx.expect, dep)).environments.map((e) => String(e.id));
      if (!whole.length) throw new NotExercised("the deployment lists no environment: there is nothing to walk");
      const head = await ctx.api.get(path, { limit: 1 });
      if (!offsetPaged(head.body)) throw new NotExercised("the environments list sends no deprecated data array (nor data.environments) with a pagination object: nothing is paged by offset and limit");
      // A few limits a trial: pages past the first at small limits are where a cap slips.
      const limits = fc.uniqueArray(pageSize(whole.length, { max: SURE_LIMIT }), { minLength: 1, maxLength: 3 });
      await forAll(ctx, limits, async (sizes, api) => {
        for (const limit of sizes) {
          const walk = await walkOffset(api, path, limit, legacyEnvironments, { listLength: whole.length });
          expectPagesCapped(ctx.expect, walk.pages.map((res) => ({ items: legacyEnvironments(res.body) ?? [], res })), "limit", walk.limit, "environment");
          expectWalkCovers(ctx.expect, walk.items.map((e: any) => String(e?.id)), whole, `environment (limit=${limit})`, walk.pages.at(-1));
        }
      });
    },
  },
  maskingProperty({
    id: "env-vars.mask.any-upper-case-marker",
    level: "MUST",
    title: "Any variable name set through PUT env-vars reads [ENCRYPTED] exactly when it contains PASS, SECRET, TOKEN, KEY or CREDENTIAL, wherever in the name: in the list and in the PUT answer (items and data)",
    // Markers only in another case are the SHOULD below: the spec writes them in upper case.
    select: (name) => holdsMarker(name, false) || !holdsMarker(name, true),
    masked: (name) => holdsMarker(name, false),
  }),
  maskingProperty({
    id: "env-vars.mask.any-other-case-marker",
    level: "SHOULD",
    title: "Any variable name set through PUT env-vars that contains a marker only in another case (pass, Secret, toKen) reads [ENCRYPTED] too, in the list and in the PUT answer",
    select: (name) => holdsMarker(name, true) && !holdsMarker(name, false),
    masked: () => true,
  }),
  {
    id: "tokens.lifetime.any-expires-in",
    spec: "E3; Resources / Metadata token result",
    level: "MUST",
    title: "For any expires_in from 1 to 3600 and any security context, expires_at is created_at plus expires_in seconds",
    kind: "property",
    needs: TOKEN_NEEDS,
    async run(ctx) {
      await forAll(ctx, lifetimes, async (body, api) => {
        const { data, res } = await issueToken(ctx, api, body);
        const { created, expires } = tokenTimes(data);
        const lifetime = secondsBetween(created, expires);
        // Only one naming its offset leaves the time between them unknown: the case says nothing.
        if (lifetime === undefined) throw new NotExercised("created_at and expires_at: only one names its UTC offset");
        // Both times come from one instant: less than a second of difference is rounding, a second is not.
        ctx.expect.that(Math.abs(lifetime - body.expires_in) < 1, `with expires_in ${body.expires_in}, expires_at is created_at plus ${body.expires_in} s`, { reason: "lifetime", expected: `${body.expires_in} s`, got: `${lifetime} s`, res });
      });
    },
  },
  {
    id: "tokens.jwt.any-lifetime",
    spec: "E3 (token: JWT, valid for expires_in seconds)",
    level: "SHOULD",
    title: "For any expires_in from 1 to 3600, the JWT's exp is expires_in seconds after its iat (after created_at without iat)",
    kind: "property",
    needs: TOKEN_NEEDS,
    async run(ctx) {
      await forAll(ctx, lifetimes, async (body, api) => {
        const { data, res } = await issueToken(ctx, api, body);
        const claims = claimsOf(data.token);
        if (!claims) return ctx.expect.fail("the token is not a JWT", { expected: "a JWT whose payload is a JSON object", got: "a token that does not decode", res, reason: "not-jwt" });
        const created = tokenTimes(data).created;
        // created_at without offset is no instant: with no iat either, the JWT's lifetime is unknown.
        if (typeof claims.iat !== "number" && !created.hasOffset) throw new NotExercised("the JWT has no iat and created_at names no UTC offset");
        const issued = typeof claims.iat === "number" ? claims.iat : created.ms / 1000;
        const lifetime = typeof claims.exp === "number" ? claims.exp - issued : undefined;
        ctx.expect.that(lifetime !== undefined && Math.abs(lifetime - body.expires_in) < 1, `with expires_in ${body.expires_in}, the JWT's exp is ${body.expires_in} s after ${typeof claims.iat === "number" ? "iat" : "created_at"}`, { reason: "jwt-lifetime", expected: `${body.expires_in} s`, got: lifetime === undefined ? "no exp claim" : `${lifetime} s`, res });
      });
    },
  },
  {
    id: "deployment-update.version.near-miss-forms",
    spec: "E6 rule 1; Errors 2",
    level: "MUST",
    title: "Any releaseChannelVersion other than 1.7.20, v1.7.20 or the image-style reference of a listed version (a near miss of one: V1.7.20, v 1.7.20, 1.7, 1.7.20.0, cubejs/cube:1.7.20, another image; or an unlisted version) gets 400 and changes nothing",
    kind: "property",
    // The accepted spellings are deployment-update.version.listed-forms' (one update each): on a server that keeps the rule, no trial here changes the deployment.
    needs: ["writes", "deployment-changes", "fixture:mutableDeployment"],
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      const { list, current } = await currentVersions(ctx.api, ctx.expect, dep);
      if (!current) throw new NotExercised("E5 marks no version current: the version the property moves away from could not be put back");
      await keepSettings(ctx, dep);
      const inputs = fc.oneof({ arbitrary: nearMissVersionForm(list), weight: 3 }, { arbitrary: rejectedVersionForm(list), weight: 1 });
      await forAll(ctx, inputs, async (input, api) => {
        // Read again each time: a trial that wrongly moved the deployment must not fail the ones after it.
        const before = (await currentVersions(api, ctx.expect, dep)).current;
        const res = await api.call("updateDeployment", { deploymentId: dep }, { body: { releaseChannelVersion: input } });
        ctx.expect.status(res, 400, `releaseChannelVersion ${JSON.stringify(input)} is none of the three forms of a listed version`);
        const after = await currentVersions(api, ctx.expect, dep);
        ctx.expect.that(after.current?.version === before?.version, "E5 marks the same version current as before", { expected: `isCurrent on ${before?.version}`, got: after.current ? `isCurrent on ${after.current.version}` : "no entry with isCurrent true", res: after.res, reason: "current-version" });
      });
    },
  },
]);
