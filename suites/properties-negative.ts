import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import type { Api } from "../core/api.js";
import { group, type CheckSpec, type Need } from "../core/check.js";
import type { CheckContext } from "../core/context.js";
import type { RequestSpec, Response } from "../core/http.js";
import { Skip } from "../core/outcome.js";
import { walkCursor } from "../core/pagination.js";
import { forAll } from "../core/property.js";
import type { SchemaName } from "../core/schemas.js";
import { envVarTag, invalidValues, malformedJson, rejectedVersionForm, securityContext, validValues, type InvalidOptions } from "../generators/index.js";
import { currentEnvironments } from "./lib/environment-list.js";
import { tokenPath } from "./lib/metadata-token.js";
import { keepSettings } from "./lib/deployment-settings.js";
import { createFolder, createWorkbook } from "./lib/scratch-items.js";
import { currentVersions } from "./lib/version-list.js";
import { bySlugPath, ownWorkbook, trackAnswered, workbookPath } from "./lib/workbook-writes.js";

/**
 * Negative data (E3, E4, E6, E10, E11, E12, PUT env-vars): a body that breaks one rule of the
 * endpoint, in an otherwise valid request that would have changed something, is rejected with a
 * 4xx and changes nothing. The valid request names only what the check created or restores, so a
 * server that wrongly accepts one acts on the run's own objects. Unknown extra fields are never
 * sent as "invalid": a server may ignore them.
 */

/** One rule broken at one place (`at`, a JSON pointer), or a body that is not JSON at all. */
interface BadBody {
  kind: string;
  at: string;
  body?: unknown;
  raw?: string;
}

interface Stage {
  cases: fc.Arbitrary<BadBody>;
  send(api: Api, bad: BadBody): Promise<Response>;
  /** Fails the check when what the valid request would have changed is no longer as it was. */
  unchanged(api: Api): Promise<void>;
}

const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);
const bare = (version: unknown) => String(version).replace(/^v/, "");

function badBodies(ctx: CheckContext, schema: SchemaName, opts: InvalidOptions & { base: fc.Arbitrary<unknown> }, more: fc.Arbitrary<BadBody>[] = []): fc.Arbitrary<BadBody> {
  const broken = invalidValues(ctx.schemas.schema(schema), opts).map((c): BadBody => ({ kind: c.kind, at: c.at, body: c.value }));
  // A body that is no JSON at all is one break among the many the schema allows.
  return fc.oneof({ arbitrary: broken, weight: 8 }, { arbitrary: malformedJson(opts.base).map((raw): BadBody => ({ kind: "malformed-json", at: "", raw })), weight: 1 }, ...more.map((arbitrary) => ({ arbitrary, weight: 2 })));
}

function sender(method: RequestSpec["method"], path: string, after?: (res: Response) => void): Stage["send"] {
  return async (api, bad) => {
    const res = await api.send(bad.raw === undefined ? { method, path, body: bad.body } : { method, path, rawBody: bad.raw });
    after?.(res);
    return res;
  };
}

const describe = (bad: BadBody) => (bad.kind === "malformed-json" ? "a body that is not JSON" : `a body with ${bad.kind} at ${bad.at || "the root"}`);

/** One endpoint of a negative property: how to set it up, which of its cases the property sends, and the status they must get (else any 4xx). */
interface Part {
  endpoint: string;
  stage: (ctx: CheckContext) => Promise<Stage>;
  select: (bad: BadBody) => boolean;
  status?: (bad: BadBody) => number[] | undefined;
}

const everything = () => true;

/**
 * The property: every case the parts select is rejected and changes nothing. Endpoints whose
 * rules the spec fixes to the same degree share one property. A trial is a short session of up
 * to three bad requests, each to one endpoint; shrinking leaves the one that is not refused.
 */
function negative(o: Pick<CheckSpec, "id" | "spec" | "level" | "title"> & { needs: Need[]; parts: Part[] }): CheckSpec {
  return {
    id: o.id,
    spec: o.spec,
    level: o.level,
    title: o.title,
    kind: "property",
    needs: o.needs,
    async run(ctx) {
      const parts: (Part & Stage)[] = [];
      for (const p of o.parts) parts.push({ ...p, ...(await p.stage(ctx)) });
      const cases = fc.oneof(...parts.map((p) => p.cases.filter(p.select).map((bad) => ({ endpoint: p.endpoint, ...bad }))));
      await forAll(ctx, fc.array(cases, { minLength: 1, maxLength: 3 }), async (session, api) => {
        for (const bad of session) {
          const part = parts.find((p) => p.endpoint === bad.endpoint)!;
          const res = await part.send(api, bad);
          const status = part.status?.(bad);
          const what = `${bad.endpoint}: ${describe(bad)} is rejected`;
          if (status) ctx.expect.status(res, status, what);
          else ctx.expect.clientError(res, `${what} with a 4xx`);
          await part.unchanged(api);
        }
      });
    },
  };
}

// ---------------------------------------------------------------- E3

/** A token leaves nothing to read back: the status is the whole verdict. */
async function tokenStage(ctx: CheckContext): Promise<Stage> {
  const base = fc.record({ security_context: securityContext(), expires_in: fc.integer({ min: 1, max: 3600 }) });
  return { cases: badBodies(ctx, "MetadataTokenRequest", { base, nullIsAbsent: true }), send: sender("POST", tokenPath(ctx)), unchanged: async () => {} };
}

// ---------------------------------------------------------------- E4

const togglePath = (dep: string) => `/build/api/v1/deployments/${dep}/branches/staging-environment`;

/** Whether E2 lists the branch as a `staging` environment now (States table). */
async function stagingOn(ctx: CheckContext, api: Api, dep: string, branch: string): Promise<{ on: boolean; res: Response }> {
  const { environments, res } = await currentEnvironments(api, ctx.expect, dep);
  return { on: environments.some((e) => e.type === "staging" && e.branch === branch), res };
}

/** Valid toggles flip the shared branch's flag; its flag is put back at cleanup if a server flipped it anyway. */
async function stagingStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("deployment").id;
  const branch = ctx.fixture("sharedBranch");
  const { on: was } = await stagingOn(ctx, ctx.api, dep, branch.name);
  ctx.scratch.onCleanup(`the staging environment of branch ${branch.name} in deployment ${dep}`, async () => {
    if ((await stagingOn(ctx, ctx.api, dep, branch.name)).on === was) return;
    const res = await ctx.api.put(togglePath(dep), { enabled: was, branchName: branch.name });
    if (res.status !== 200) throw new Error(`the staging toggle answered ${res.status}`);
  });
  const valid = [{ enabled: !was, branchName: branch.name }, ...(branch.id === undefined ? [] : [{ enabled: !was, branchId: branch.id }])];
  // "one of branchName or branchId" does not say that both together are refused: never sent as invalid.
  const cases = badBodies(ctx, "StagingToggleRequest", { base: fc.constantFrom(...valid), nullIsAbsent: true }).filter((b) => b.kind !== "several-branches");
  return {
    cases,
    send: sender("PUT", togglePath(dep)),
    async unchanged(api) {
      const { on, res } = await stagingOn(ctx, api, dep, branch.name);
      ctx.expect.that(on === was, `the staging environment of branch ${branch.name} is still ${was ? "on" : "off"}`, { expected: `E2 ${was ? "lists" : "does not list"} it as staging`, got: on ? "listed" : "not listed", res });
    },
  };
}

// ---------------------------------------------------------------- E6

const E6_FIELDS = ["cloudProvider", "region", "releaseChannel", "releaseChannelVersion", "releaseChannelVersionHold", "template", "templateVariables", "defaultLaunchpadViewGroup", "launchpadTabs"];

/** The E6 fields the settings (E14, shape not shown) show, or undefined when they cannot be read. */
async function e6Settings(api: Api, dep: string): Promise<{ fields: Record<string, unknown>; res: Response } | undefined> {
  const res = await api.get(`/api/v1/deployments/${dep}/settings`);
  const body = res.status === 200 && res.isJson ? res.body : undefined;
  const settings = isObject(body?.data) ? body.data : body;
  return isObject(settings) ? { fields: Object.fromEntries(E6_FIELDS.filter((f) => f in settings).map((f) => [f, settings[f]])), res } : undefined;
}

/**
 * The valid update moves the deployment to another listed version. Besides the schema's breaks,
 * releaseChannelVersion gets strings that name no listed version (E6 rule 1: "any other value").
 */
async function updateStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("mutableDeployment").id;
  const { list, current } = await currentVersions(ctx.api, ctx.expect, dep);
  const target = list.find((v) => v.isCurrent !== true);
  if (!current || !target) throw new Skip("E5 marks no version current, or lists no other: an update that would change the version cannot be built and undone");
  await keepSettings(ctx, dep);
  const before = await e6Settings(ctx.api, dep);
  const base = fc.constant({ releaseChannelVersion: bare(target.version) });
  const unlisted = rejectedVersionForm(list).map((v): BadBody => ({ kind: "unlisted-version", at: "/releaseChannelVersion", body: { releaseChannelVersion: v } }));
  return {
    cases: badBodies(ctx, "UpdateDeploymentRequest", { base, nullIsAbsent: true, optionalRoot: true }, [unlisted]),
    send: sender("PUT", `/api/v1/deployments/${dep}`),
    async unchanged(api) {
      const now = await currentVersions(api, ctx.expect, dep);
      ctx.expect.that(bare(now.current?.version) === bare(current.version), "E5 marks the same version current as before", { expected: `isCurrent on ${current.version}`, got: now.current ? `isCurrent on ${now.current.version}` : "none", res: now.res });
      const after = before && (await e6Settings(api, dep));
      if (before && after) ctx.expect.equal(after.fields, before.fields, "the E6 fields of the settings are as they were", after.res);
    },
  };
}

const atVersion = (b: BadBody) => b.at === "/releaseChannelVersion";

// ---------------------------------------------------------------- E10

/** The source sits in a folder of the run's own, where a clone would land (E10 rule 4): the folder must keep holding it alone. */
async function cloneStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("deployment").id;
  const folder = await createFolder(ctx, dep);
  const source = await createWorkbook(ctx, dep, folder.id);
  return {
    // A null body is no body: a plain clone.
    cases: badBodies(ctx, "CloneWorkbookRequest", { base: fc.constant({ shared: false }), nullIsAbsent: true, optionalRoot: true }),
    send: sender("POST", `${workbookPath(dep, source.id)}/duplicate`, (res) => trackAnswered(ctx.scratch, dep, res)),
    async unchanged(api) {
      const walk = await walkCursor(api, `/api/v1/deployments/${dep}/workbooks`, { first: 100, query: { folderId: folder.id } });
      const ids = walk.items.map((w: any) => w?.id);
      ctx.expect.equal(ids, [source.id], `the run's folder ${folder.id} holds only the source workbook: no clone was made`, walk.pages.at(-1)?.res);
    },
  };
}

// ---------------------------------------------------------------- E11

/** The valid upsert renames the run's own workbook and merges meta into it; it must read as it was. */
async function upsertStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("deployment").id;
  const folder = await createFolder(ctx, dep);
  const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep);
  const kept = (w: any) => ({ name: w?.name, meta: w?.meta, folderId: w?.folderId ?? null });
  const before = kept(workbook);
  const meta = validValues(ctx.schemas.schema("UpsertWorkbookRequest").properties.meta);
  const base = fc.record({ name: fc.constant(`${workbook.name} renamed`), meta });
  // A folderId, when a case adds one, looks like the run's own folder, not like someone else's.
  const opts = { base, nullIsAbsent: true, optionalRoot: true, overrides: { "/folderId": fc.constant(folder.id) } };
  return {
    cases: badBodies(ctx, "UpsertWorkbookRequest", opts),
    send: sender("PUT", bySlugPath(dep, slug), (res) => trackAnswered(ctx.scratch, dep, res)),
    async unchanged(api) {
      const res = await api.get(workbookPath(dep, workbook.id));
      ctx.expect.equal(kept(ctx.expect.ok(res, "Workbook")), before, "the workbook holding the slug keeps its name, meta and folder", res);
    },
  };
}

/**
 * E11 rule 2: a sent meta.dashboardDraft is validated as elsewhere, so a draft that breaks
 * DashboardConfig anywhere, however deep, is refused. Only the draft is sent: the workbook the
 * slug holds must keep its name, meta and folder. TABS_CONTAINER, still accepted, is never a break.
 */
async function draftStage(ctx: CheckContext): Promise<Stage> {
  const stage = await upsertStage(ctx);
  const cases = invalidValues(ctx.schemas.schema("DashboardConfig"), { nullIsAbsent: true, optionalRoot: true })
    .filter((c) => !JSON.stringify(c.value).includes(LEGACY_WIDGET_TYPE))
    .map((c): BadBody => ({ kind: c.kind, at: `/meta/dashboardDraft${c.at}`, body: { meta: { dashboardDraft: c.value } } }));
  return { ...stage, cases };
}

const LEGACY_WIDGET_TYPE = "TABS_CONTAINER";

// ---------------------------------------------------------------- E12

/** The valid move takes the run's own workbook from the root into the run's own folder; it must stay at the root. */
async function bulkMoveStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("deployment").id;
  const folder = await createFolder(ctx, dep);
  const item = await createWorkbook(ctx, dep);
  const base = fc.constant({ items: [item], folderId: folder.id });
  // Entries a case adds (more than 100) name nothing: negative ids.
  const opts = { base, nullIsAbsent: true, overrides: { "/items/*/id": fc.integer({ min: -1_000_000, max: -1 }) } };
  return {
    cases: badBodies(ctx, "BulkMoveRequest", opts),
    send: sender("POST", `/api/v1/deployments/${dep}/workspace/bulk-move`),
    async unchanged(api) {
      const res = await api.get(workbookPath(dep, item.id));
      ctx.expect.equal(ctx.expect.ok(res, "Workbook").folderId ?? null, null, `the run's workbook ${item.id} is still at the root`, res);
    },
  };
}

/** E12 fixes the types of items and folderId; how it treats a malformed entry, a missing field or a long batch, it only implies. */
const bulkMoveTyped = (b: BadBody) => b.kind === "malformed-json" || b.at === "" || (b.kind === "wrong-type" && (b.at === "/items" || b.at === "/folderId"));

// ---------------------------------------------------------------- PUT env-vars

/** Two variables of the run's own; the valid PUT would change both. Variables cannot be deleted: the names carry the run's tag. */
async function envVarStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("deployment").id;
  const path = `/api/v1/deployments/${dep}/env-vars`;
  const tag = envVarTag(ctx.scratch.prefix);
  const names = [`${tag}_NEGATIVE_A`, `${tag}_NEGATIVE_B`];
  const set = (value: string) => ({ env_variables: names.map((name) => ({ name, value })) });
  const first = await ctx.api.put(path, set("before"));
  if (![200, 201, 204].includes(first.status)) throw new Skip(`PUT env-vars did not take two new variables (answered ${first.status}): there is nothing to keep unchanged`);
  return {
    cases: badBodies(ctx, "EnvVarsPutRequest", { base: fc.constant(set("after")), nullIsAbsent: true }),
    send: sender("PUT", path),
    async unchanged(api) {
      const walk = await walkCursor(api, path, { first: 100 });
      const values = names.map((n) => walk.items.find((v: any) => v?.name === n)?.value);
      ctx.expect.that(isDeepStrictEqual(values, ["before", "before"]), `the run's variables ${names.join(", ")} keep their values`, { expected: ["before", "before"], got: values, res: walk.pages.at(-1)?.res });
    },
  };
}

const TOKEN_NEEDS: Need[] = ["writes", "fixture:deployment", "fixture:environments"];
/** A bad E6 body that a server took anyway would change the deployment: only the one named for it, only with the opt-in. */
const DEPLOYMENT_CHANGES: Need[] = ["writes", "deployment-changes", "fixture:mutableDeployment"];

export const negativeChecks = group("properties", [
  negative({
    id: "properties.negative.metadata-token",
    spec: "E3 (security_context: object, required; expires_in: number)",
    level: "MUST",
    title: "Any E3 body whose security_context is missing or not an object, or whose expires_in is not a number, or that is not JSON, is rejected with a 4xx",
    needs: TOKEN_NEEDS,
    parts: [{ endpoint: "E3", stage: tokenStage, select: (b) => b.kind !== "out-of-range" }],
  }),
  negative({
    id: "properties.negative.metadata-token-lifetime",
    spec: "E3 (expires_in: seconds)",
    level: "SHOULD",
    title: "Any E3 body whose expires_in is zero or negative is rejected with a 4xx",
    needs: TOKEN_NEEDS,
    parts: [{ endpoint: "E3", stage: tokenStage, select: (b) => b.kind === "out-of-range" }],
  }),
  negative({
    id: "properties.negative.staging-toggle",
    spec: "E4 (enabled: boolean, required; branchName: string or branchId: integer, one of them)",
    level: "MUST",
    title: "Any E4 body with enabled missing or not a boolean, a branchName or branchId of the wrong type, neither of them, or no JSON, is rejected with a 4xx and leaves the staging flag as it was",
    needs: ["writes", "fixture:deployment", "fixture:sharedBranch"],
    parts: [{ endpoint: "E4", stage: stagingStage, select: everything }],
  }),
  negative({
    id: "properties.negative.update-deployment",
    spec: "E6 rule 1; Errors 2",
    level: "MUST",
    title: "Any E6 body whose releaseChannelVersion is not a listed version in an accepted form, whatever its type, gets 400; a body that is not a JSON object a 4xx; neither changes the deployment",
    needs: DEPLOYMENT_CHANGES,
    parts: [{ endpoint: "E6", stage: updateStage, select: (b) => atVersion(b) || b.at === "" || b.kind === "malformed-json", status: (b) => (atVersion(b) ? [400] : undefined) }],
  }),
  negative({
    id: "properties.negative.workspace-writes",
    spec: "E10 (body {shared: boolean}); E11 (name string, folderId integer, meta object); E12 (items array, folderId integer or null)",
    level: "MUST",
    title: "Any clone, upsert or bulk-move body with a field of a type other than the one the spec shows, that is not an object, or that is not JSON, is rejected with a 4xx and creates, changes and moves nothing",
    needs: ["writes", "fixture:deployment"],
    parts: [
      { endpoint: "E10", stage: cloneStage, select: everything },
      { endpoint: "E11", stage: upsertStage, select: everything },
      { endpoint: "E12", stage: bulkMoveStage, select: bulkMoveTyped },
    ],
  }),
  negative({
    id: "properties.negative.update-deployment-fields",
    spec: "E6 (field types not shown)",
    level: "SHOULD",
    title: "An E6 body with another field than releaseChannelVersion of an implausible type (a number for region, a non-string template variable, ...) is rejected with a 4xx and changes nothing",
    // A template variable a server took anyway could not be removed.
    needs: [...DEPLOYMENT_CHANGES, "unremovable-writes"],
    parts: [{ endpoint: "E6", stage: updateStage, select: (b) => !atVersion(b) && b.at !== "" && b.kind !== "malformed-json" }],
  }),
  negative({
    id: "properties.negative.upsert-draft",
    spec: "E11 rule 2 (a meta.dashboardDraft is validated as elsewhere); Resources / DashboardConfig",
    level: "MUST",
    title: "Any meta.dashboardDraft that breaks DashboardConfig at one place, however deep (a field of another JSON type, an unknown or near-miss enum value, an app entry past 255 characters, a widget without its id, type or position), is rejected with a 4xx and the workbook keeps its name, meta and folder",
    needs: ["writes", "fixture:deployment"],
    parts: [{ endpoint: "E11", stage: draftStage, select: everything }],
  }),
  negative({
    id: "properties.negative.implied-rules",
    spec: "E12 (items of {type, id}, up to 100), Limits; PUT env-vars (E14, body in facts)",
    level: "SHOULD",
    title: "Bodies that break what the spec only implies (a malformed E12 entry or more than 100 of them, a missing items or folderId, a bad PUT env-vars entry or the [ENCRYPTED] placeholder) are rejected with a 4xx and change nothing",
    // PUT env-vars sets variables that cannot be removed, should a server take a bad body.
    needs: ["writes", "unremovable-writes", "fixture:deployment"],
    parts: [
      { endpoint: "E12", stage: bulkMoveStage, select: (b) => !bulkMoveTyped(b) },
      { endpoint: "PUT env-vars", stage: envVarStage, select: everything },
    ],
  }),
]);
