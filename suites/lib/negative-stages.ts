import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import type { Api } from "../../core/api.js";
import type { CheckContext } from "../../core/context.js";
import type { Response } from "../../core/http.js";
import { NotExercised } from "../../core/outcome.js";
import { walkCursor } from "../../core/pagination.js";
import type { SchemaName } from "../../core/schemas.js";
import { ENV_VARS, invalidValues, malformedJson, rejectedVersionForm, securityContext, validValues, type InvalidOptions } from "../../generators/index.js";
import { keepSettings } from "./deployment-settings.js";
import { readableWithout, spellsAllowed, typesAt, valueAt } from "./lenient-reading.js";
import { tokenParams } from "./metadata-token.js";
import { createFolder, createWorkbook } from "./scratch-items.js";
import { stagingState, unreadable } from "./staging-state.js";
import { currentEnvironments } from "./environment-list.js";
import { currentVersions } from "./version-list.js";
import { ownWorkbook, trackAnswered, workbookPath } from "./workbook-writes.js";
import { type OperationParams, pathTo, requestTo } from "../../core/spec/client.js";
import type { OperationName } from "../../core/spec/operations.js";

/**
 * The stages of the negative properties (suites/properties-negative.ts), one per endpoint: the
 * bad bodies it sends, how it sends them, what must stay as it was, and how that state is put
 * back. The valid request each breaks names only what the stage created or restores.
 */
/** One rule broken at one place (`at`, a JSON pointer), or a body that is not JSON at all. */
export interface BadBody {
  kind: string;
  at: string;
  body?: unknown;
  raw?: string;
}

export interface Stage {
  cases: fc.Arbitrary<BadBody>;
  send(api: Api, bad: BadBody): Promise<Response>;
  /** Fails the check when what the valid request would have changed is no longer as it was (`res`: the answer to the case). */
  unchanged(api: Api, res: Response): Promise<void>;
  /**
   * Brings back the state every case is judged from, after a case that may have moved it: so
   * that each trial, and the confirmation of a shrunk case, starts where the first one did, and
   * no case is blamed for what an earlier one left.
   */
  restore(api: Api): Promise<void>;
  /** A case a lenient server may read as the valid request it spells (lib/lenient-reading). */
  lenient(bad: BadBody): boolean;
  /**
   * A case a server may read as the valid request without its unusable part (an optional body
   * that is no object, a null beside the field that names the target). The spec states no outcome
   * for it: where a property judges only what is stated (no 5xx, no effect beyond what the
   * request names), a 2xx to it is judged by `faithful`; the 4xx stays what the SHOULD asks.
   */
  ignorable?(bad: BadBody): boolean;
  /** After a 2xx to a lenient case: fails where the reading was not the value spelled, where that can be read back. */
  faithful?(api: Api, bad: BadBody, res: Response): Promise<void>;
}

/** The cases of `schema` a lenient server may read as valid: a wrongly typed value spelling an allowed one. */
function spelledAsValid(ctx: CheckContext, schema: SchemaName): (bad: BadBody) => boolean {
  const s = ctx.schemas.schema(schema);
  return (bad) => bad.kind === "wrong-type" && spellsAllowed(valueAt(bad.body, bad.at), typesAt(s, bad.at));
}

const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);
const bare = (version: unknown) => String(version).replace(/^v/, "");

function badBodies(ctx: CheckContext, schema: SchemaName, opts: InvalidOptions & { base: fc.Arbitrary<unknown> }, more: fc.Arbitrary<BadBody>[] = []): fc.Arbitrary<BadBody> {
  const broken = invalidValues(ctx.schemas.schema(schema), opts).map((c): BadBody => ({ kind: c.kind, at: c.at, body: c.value }));
  // A body that is no JSON at all is one break among the many the schema allows.
  return fc.oneof({ arbitrary: broken, weight: 8 }, { arbitrary: malformedJson(opts.base).map((raw): BadBody => ({ kind: "malformed-json", at: "", raw })), weight: 1 }, ...more.map((arbitrary) => ({ arbitrary, weight: 2 })));
}

function sender(name: OperationName, params: OperationParams, after?: (res: Response) => void): Stage["send"] {
  return async (api, bad) => {
    const res = await api.send(requestTo(name, params, bad.raw === undefined ? { body: bad.body } : { rawBody: bad.raw }));
    after?.(res);
    return res;
  };
}

// ---------------------------------------------------------------- E3

/** What a bad body must not do is issue a token; a lenient reading of expires_in must give the lifetime it spells. */
export async function tokenStage(ctx: CheckContext): Promise<Stage> {
  const base = fc.record({ security_context: securityContext(), expires_in: fc.integer({ min: 1, max: 3600 }) });
  return {
    cases: badBodies(ctx, "MetadataTokenRequest", { base, nullIsAbsent: true }),
    send: sender("createMetadataToken", tokenParams(ctx)),
    async unchanged(_api, res) {
      const token = res.status < 300 ? res.body?.data?.token : undefined;
      ctx.expect.that(token === undefined, "no token is issued for a broken body", { expected: "no data.token", got: "a token", res, reason: "no-token" });
    },
    restore: async () => {},
    lenient: spelledAsValid(ctx, "MetadataTokenRequest"),
    async faithful(_api, bad, res) {
      const data = res.body?.data;
      // A 2xx that issued no token took nothing.
      if (bad.at !== "/expires_in" || typeof data?.token !== "string") return;
      const spelled = Number(valueAt(bad.body, bad.at));
      const lifetime = (Date.parse(data?.expires_at) - Date.parse(data?.created_at)) / 1000;
      ctx.expect.that(Math.abs(lifetime - spelled) <= 1, `expires_in ${JSON.stringify(valueAt(bad.body, bad.at))}, taken, gives the lifetime it spells`, { reason: "lifetime-spelled", expected: `expires_at ${spelled} s after created_at`, got: `${lifetime} s`, res });
    },
  };
}

// ---------------------------------------------------------------- E4


/** Whether the branch's staging environment is on now (E2, else the branches list); unreadable, the property has nothing to judge. */
async function stagingOn(ctx: CheckContext, api: Api, dep: string, branch: string): Promise<{ on: boolean; res?: Response }> {
  const state = await stagingState(api, ctx.expect, dep, branch);
  if (state.on === undefined) throw new NotExercised(unreadable(branch));
  return { on: state.on, res: state.res };
}

/** Valid toggles flip the shared branch's flag; its flag is put back at cleanup if a server flipped it anyway. */
export async function stagingStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("deployment").id;
  const branch = ctx.fixture("sharedBranch");
  const { on: was } = await stagingOn(ctx, ctx.api, dep, branch.name);
  ctx.scratch.onCleanup(`the staging environment of branch ${branch.name} in deployment ${dep}`, async () => {
    if ((await stagingOn(ctx, ctx.api, dep, branch.name)).on === was) return;
    const res = await ctx.api.call("setStagingEnvironment", { deploymentId: dep }, { body: { enabled: was, branchName: branch.name } });
    if (res.status !== 200) throw new Error(`the staging toggle answered ${res.status}`);
  });
  const valid = [{ enabled: !was, branchName: branch.name }, ...(branch.id === undefined ? [] : [{ enabled: !was, branchId: branch.id }])];
  // The other branches' staging environments: what no reading of a toggle of this branch may change.
  const others = async (api: Api) => {
    const { environments, res } = await currentEnvironments(api, ctx.expect, dep);
    return { on: environments.filter((e) => e.type === "staging" && e.branch !== branch.name).map((e) => e.branch ?? e.id).sort(), res };
  };
  const othersBefore = (await others(ctx.api)).on;
  const unchanged = async (api: Api) => {
    const { on, res } = await stagingOn(ctx, api, dep, branch.name);
    ctx.expect.that(on === was, `the staging environment of branch ${branch.name} is still ${was ? "on" : "off"}`, { reason: "staging-unchanged", expected: `E2 ${was ? "lists" : "does not list"} it as staging`, got: on ? "listed" : "not listed", res });
  };
  const names = (body: any) => isObject(body) && (body.branchName === branch.name || (branch.id !== undefined && body.branchId != null && String(body.branchId) === String(branch.id)));
  // "one of branchName or branchId" does not say that both together are refused: never sent as invalid.
  const cases = badBodies(ctx, "StagingToggleRequest", { base: fc.constantFrom(...valid), nullIsAbsent: true }).filter((b) => b.kind !== "several-branches");
  const absentReading = readableWithout(ctx.schemas.schema("StagingToggleRequest"));
  const putBack = async (api: Api) => {
    if ((await stagingOn(ctx, api, dep, branch.name)).on === was) return;
    ctx.expect.status(await api.call("setStagingEnvironment", { deploymentId: dep }, { body: { enabled: was, branchName: branch.name } }), 200, `putting the staging environment of branch ${branch.name} back ${was ? "on" : "off"}`);
  };
  return {
    cases,
    send: sender("setStagingEnvironment", { deploymentId: dep }),
    restore: putBack,
    lenient: spelledAsValid(ctx, "StagingToggleRequest"),
    // A mistyped branchName beside the branchId (or the other way round), null or of any other type, may be read as absent.
    ignorable: (bad) => (bad.at === "/branchName" || bad.at === "/branchId") && names(bad.body) && (valueAt(bad.body, bad.at) === null || absentReading(bad)),
    async faithful(api, bad) {
      // A reading acts on the branch the body names, if it names this one, and on no other.
      if (!names(bad.body)) await unchanged(api);
      const now = await others(api);
      ctx.expect.equal(now.on, othersBefore, `a toggle of branch ${branch.name} leaves the other branches' staging environments as they were`, { res: now.res, reason: "beyond-request" });
    },
    unchanged,
  };
}

// ---------------------------------------------------------------- E6

const E6_FIELDS = ["cloudProvider", "region", "releaseChannel", "releaseChannelVersion", "releaseChannelVersionHold", "template", "templateVariables", "defaultLaunchpadViewGroup", "launchpadTabs"];

/** The E6 fields the settings (E14, shape not shown) show, or undefined when they cannot be read. */
async function e6Settings(api: Api, dep: string): Promise<{ fields: Record<string, unknown>; res: Response } | undefined> {
  const res = await api.call("getDeploymentSettings", { deploymentId: dep });
  const body = res.status === 200 && res.isJson ? res.body : undefined;
  const settings = isObject(body?.data) ? body.data : body;
  return isObject(settings) ? { fields: Object.fromEntries(E6_FIELDS.filter((f) => f in settings).map((f) => [f, settings[f]])), res } : undefined;
}

/**
 * The valid update moves the deployment to another listed version. Besides the schema's breaks,
 * releaseChannelVersion gets strings that name no listed version (E6 rule 1: "any other value").
 */
export async function updateStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("mutableDeployment").id;
  const { list, current } = await currentVersions(ctx.api, ctx.expect, dep);
  const target = list.find((v) => v.isCurrent !== true);
  if (!current || !target) throw new NotExercised("E5 marks no version current, or lists no other: an update that would change the version cannot be built and undone");
  await keepSettings(ctx, dep);
  let before = await e6Settings(ctx.api, dep);
  const base = fc.constant({ releaseChannelVersion: bare(target.version) });
  const unlisted = rejectedVersionForm(list).map((v): BadBody => ({ kind: "unlisted-version", at: "/releaseChannelVersion", body: { releaseChannelVersion: v } }));
  return {
    cases: badBodies(ctx, "UpdateDeploymentRequest", { base, nullIsAbsent: true, optionalRoot: true }, [unlisted]),
    send: sender("updateDeployment", { deploymentId: dep }),
    async restore(api) {
      const now = await currentVersions(api, ctx.expect, dep);
      if (bare(now.current?.version) !== bare(current.version)) ctx.expect.status(await api.call("updateDeployment", { deploymentId: dep }, { body: { releaseChannelVersion: bare(current.version) } }), 200, `putting the deployment back on version ${current.version}`);
      before = await e6Settings(api, dep);
    },
    // E6 rule 1: any value that is no listed version is a 400, whatever it might be read as.
    lenient: () => false,
    async unchanged(api) {
      const now = await currentVersions(api, ctx.expect, dep);
      ctx.expect.that(bare(now.current?.version) === bare(current.version), "E5 marks the same version current as before", { expected: `isCurrent on ${current.version}`, got: now.current ? `isCurrent on ${now.current.version}` : "none", res: now.res, reason: "current-version" });
      const after = before && (await e6Settings(api, dep));
      if (before && after) ctx.expect.equal(after.fields, before.fields, "the E6 fields of the settings are as they were", { res: after.res, reason: "settings-unchanged" });
    },
  };
}

export const atVersion = (b: BadBody) => b.at === "/releaseChannelVersion";

// ---------------------------------------------------------------- E10

/** The source sits in a folder of the run's own, where a clone would land (E10 rule 4): the folder must keep holding it alone. */
export async function cloneStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("deployment").id;
  const folder = await createFolder(ctx, dep);
  const source = await createWorkbook(ctx, dep, folder.id);
  const inFolder = async (api: Api) => {
    const walk = await walkCursor(api, pathTo("listWorkbooks", { deploymentId: dep }), { first: 100, query: { folderId: folder.id } });
    return { ids: walk.items.map((w: any) => w?.id).sort(), res: walk.pages.at(-1)?.res };
  };
  // What the folder holds: the source, and the clones of readings taken as valid (tracked, removed at cleanup).
  let held: unknown[] = [source.id];
  const spelled = spelledAsValid(ctx, "CloneWorkbookRequest");
  const absentReading = readableWithout(ctx.schemas.schema("CloneWorkbookRequest"));
  return {
    // A null body is no body: a plain clone.
    cases: badBodies(ctx, "CloneWorkbookRequest", { base: fc.constant({ shared: false }), nullIsAbsent: true, optionalRoot: true }),
    send: sender("duplicateWorkbook", { deploymentId: dep, workbookId: source.id }, (res) => trackAnswered(ctx.scratch, dep, res)),
    async restore(api) {
      held = (await inFolder(api)).ids;
    },
    // The body is optional: a server may take the JSON string "" as none.
    lenient: (bad) => spelled(bad) || (bad.at === "" && bad.body === ""),
    // Any body that is no object (" ", [], false) may be taken as none, and a mistyped shared ({}, [], 1, null) as absent: a plain clone.
    ignorable: (bad) => bad.raw === undefined && ((bad.at === "" && !isObject(bad.body)) || absentReading(bad)),
    async faithful(api, _bad, res) {
      const made = res.isJson && Number.isSafeInteger(res.body?.id) ? [res.body.id] : [];
      const { ids, res: listed } = await inFolder(api);
      const beyond = ids.filter((id: unknown) => !held.includes(id) && !made.includes(id));
      ctx.expect.that(beyond.length === 0, `a body taken as a plain clone makes that clone only: the run's folder ${folder.id} holds nothing else new`, { expected: `${JSON.stringify(held)} and the clone answered`, got: ids, res: listed, reason: "beyond-request" });
    },
    async unchanged(api) {
      const { ids, res } = await inFolder(api);
      ctx.expect.equal(ids, held, `the run's folder ${folder.id} holds what it held (the source workbook): no clone was made`, { res, reason: "no-clone" });
    },
  };
}

// ---------------------------------------------------------------- E11

/** The valid upsert renames the run's own workbook and merges meta into it; it must read as it was. */
export async function upsertStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("deployment").id;
  const folder = await createFolder(ctx, dep);
  const { slug, workbook } = await ownWorkbook(ctx, ctx.api, dep);
  const kept = (w: any) => ({ name: w?.name, meta: w?.meta, folderId: w?.folderId ?? null });
  let before = kept(workbook);
  const meta = validValues(ctx.schemas.schema("UpsertWorkbookRequest").properties.meta);
  const base = fc.record({ name: fc.constant(`${workbook.name} renamed`), meta });
  // A folderId, when a case adds one, looks like the run's own folder, not like someone else's.
  const opts = { base, nullIsAbsent: true, optionalRoot: true, overrides: { "/folderId": fc.constant(folder.id) } };
  return {
    cases: badBodies(ctx, "UpsertWorkbookRequest", opts),
    send: sender("upsertWorkbookBySlug", { deploymentId: dep, slug }, (res) => trackAnswered(ctx.scratch, dep, res)),
    // A merged meta cannot be taken back: the workbook as it is now is what later cases must keep.
    async restore(api) {
      before = kept(ctx.expect.ok(await api.get(workbookPath(dep, workbook.id)), "Workbook"));
    },
    lenient: spelledAsValid(ctx, "UpsertWorkbookRequest"),
    async unchanged(api) {
      const res = await api.get(workbookPath(dep, workbook.id));
      ctx.expect.equal(kept(ctx.expect.ok(res, "Workbook")), before, "the workbook holding the slug keeps its name, meta and folder", { res: res, reason: "holder-unchanged" });
    },
  };
}

/**
 * E11 rule 2: a sent meta.dashboardDraft is validated as elsewhere, so a draft that breaks
 * DashboardConfig anywhere, however deep, is refused. Only the draft is sent: the workbook the
 * slug holds must keep its name, meta and folder. TABS_CONTAINER, still accepted, is never a break.
 */
export async function draftStage(ctx: CheckContext): Promise<Stage> {
  const stage = await upsertStage(ctx);
  const cases = invalidValues(ctx.schemas.schema("DashboardConfig"), { nullIsAbsent: true, optionalRoot: true })
    .filter((c) => !JSON.stringify(c.value).includes(LEGACY_WIDGET_TYPE))
    .map((c): BadBody => ({ kind: c.kind, at: `/meta/dashboardDraft${c.at}`, body: { meta: { dashboardDraft: c.value } } }));
  return { ...stage, cases };
}

const LEGACY_WIDGET_TYPE = "TABS_CONTAINER";

// ---------------------------------------------------------------- E12

/** The valid move takes the run's own workbook from the root into the run's own folder; it must stay at the root. */
export async function bulkMoveStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("deployment").id;
  const folder = await createFolder(ctx, dep);
  const item = await createWorkbook(ctx, dep);
  const base = fc.constant({ items: [item], folderId: folder.id });
  // Entries a case adds (more than 100) name nothing: negative ids.
  const opts = { base, nullIsAbsent: true, overrides: { "/items/*/id": fc.integer({ min: -1_000_000, max: -1 }) } };
  return {
    cases: badBodies(ctx, "BulkMoveRequest", opts),
    send: sender("bulkMoveWorkspaceItems", { deploymentId: dep }),
    async restore(api) {
      if ((ctx.expect.ok(await api.get(workbookPath(dep, item.id)), "Workbook").folderId ?? null) === null) return;
      ctx.expect.status(await api.call("bulkMoveWorkspaceItems", { deploymentId: dep }, { body: { items: [item], folderId: null } }), 200, `moving the run's workbook ${item.id} back to the root`);
    },
    lenient: spelledAsValid(ctx, "BulkMoveRequest"),
    async unchanged(api) {
      const res = await api.get(workbookPath(dep, item.id));
      ctx.expect.equal(ctx.expect.ok(res, "Workbook").folderId ?? null, null, `the run's workbook ${item.id} is still at the root`, { res: res, reason: "stays-put" });
    },
  };
}

/** E12 fixes the types of items and folderId; how it treats a malformed entry, a missing field or a long batch, it only implies. */
export const bulkMoveTyped = (b: BadBody) => b.kind === "malformed-json" || b.at === "" || (b.kind === "wrong-type" && (b.at === "/items" || b.at === "/folderId"));

// ---------------------------------------------------------------- PUT env-vars

/** Two variables of the tool's fixed set; the valid PUT would change both. Variables cannot be deleted: every run reuses these names. */
export async function envVarStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("deployment").id;
  const path = pathTo("listEnvVars", { deploymentId: dep });
  const names = [...ENV_VARS.negative];
  const set = (value: string) => ({ env_variables: names.map((name) => ({ name, value })) });
  const first = await ctx.api.call("setEnvVars", { deploymentId: dep }, { body: set("before") });
  ctx.require(first, "E14", "setting two variables of its own (PUT env-vars)", () => true);
  return {
    cases: badBodies(ctx, "EnvVarsPutRequest", { base: fc.constant(set("after")), nullIsAbsent: true }),
    send: sender("setEnvVars", { deploymentId: dep }),
    async restore(api) {
      ctx.expect.that([200, 201, 204].includes((await api.call("setEnvVars", { deploymentId: dep }, { body: set("before") })).status), `setting the run's variables ${names.join(", ")} back`, { reason: "restored" });
    },
    lenient: spelledAsValid(ctx, "EnvVarsPutRequest"),
    async unchanged(api) {
      const walk = await walkCursor(api, path, { first: 100, endpoint: "E13" });
      const values = names.map((n) => walk.items.find((v: any) => v?.name === n)?.value);
      ctx.expect.that(isDeepStrictEqual(values, ["before", "before"]), `the run's variables ${names.join(", ")} keep their values`, { expected: ["before", "before"], got: values, res: walk.pages.at(-1)?.res, reason: "values-kept" });
    },
  };
}

