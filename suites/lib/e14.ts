import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { type Created, createdBy, propertiesOf, recordOf, requiredOf } from "../../core/served/answers.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import type { ServedModel } from "../../core/served/model.js";
import { modelOf } from "../../core/served/read.js";
import { field, listed, type ServedOperation } from "../../core/served/served-operations.js";
import { pathTo } from "../../core/transport/client.js";
import { walkAgainUntil } from "../../core/transport/pagination.js";
import type { OperationName } from "../../core/api/operations.js";
import { isObject } from "./values.js";
import { runPrefixOf } from "../../core/ledger/scratch.js";
import { PathIds } from "./path-ids.js";
import { typesOf } from "../../generators/schema-shape.js";
// The served operations' bodies draw from the generators (core/served/served-operations.ts): registered on load.
import "./served-draws.js";

/**
 * What the checks of E14 rules share: the server's own document to spell requests by and to read
 * answers through (core/served/), its operations found by the rows of the spec's table
 * (core/api/operations.ts), and the scratch objects they create (each removed at cleanup). A
 * family the server does not document, or a setup request it does not answer, makes the check not
 * verifiable there: the spec shows none of these shapes.
 */

/** A setup answer the check builds on: 2xx JSON, else not verifiable (E14) or skipped (401/403). */
export function setup<T = unknown>(ctx: CheckContext, res: Response, what: string, usable?: (r: Response) => boolean): T {
  return ctx.require<T>(res, "E14", what, usable);
}

/** The run's model of the served document, or the run's one verdict on a document it could not read. */
export async function documented(ctx: Pick<CheckContext, "servedDocument">): Promise<ServedModel> {
  return modelOf(await ctx.servedDocument());
}

/** The object a setup answer carries (under the operation's documented wrapper): 2xx JSON, else as `setup` judges it. */
export function setupRecord<T = unknown>(ctx: Pick<CheckContext, "require">, op: ServedOperation, res: Response, what: string): T {
  const usable = (r: Response) => r.isJson && isObject(op.record(r));
  ctx.require(res, "E14", what, usable);
  return op.record(res);
}

/**
 * What a create made (its id where the document says, and the object), else as `setup` judges
 * it; `idFits` narrows the ids the check can use (a workspace item's integer id).
 */
export function createdIn(
  ctx: Pick<CheckContext, "require">,
  op: Pick<ServedOperation, "created">,
  res: Response,
  what: string,
  idFits: (id: string | number) => boolean = () => true,
): Created & { id: string | number } {
  const made = (r: Response) => (r.isJson ? op.created(r) : undefined);
  ctx.require(res, "E14", what, (r) => {
    const id = made(r)?.id;
    return id !== undefined && idFits(id);
  });
  return made(res) as Created & { id: string | number };
}

/**
 * An E14 operation the checks call whether or not the server documents it (folders, bulk delete:
 * the platform's published shapes): read through its documentation where the served document
 * has it, else as the body comes.
 */
export async function servedOrPlain(ctx: Pick<CheckContext, "servedDocument">, name: OperationName): Promise<Pick<ServedOperation, "record" | "created">> {
  const op = (await ctx.servedDocument().catch(() => undefined))?.model?.findNamed(name);
  return op ?? { record: (res) => recordOf(undefined, res), created: (res) => createdBy(undefined, res) };
}

/** A field that names an object of another kind by its id (`workbookId`, `tenant_id`). */
const NAMES_AN_OBJECT = /(_id|Id)$/;

/**
 * The body of an E14 request as the served document spells it (`op.body`), with each required
 * field that names an object (`workbookId`, `tenantId`) and that no hint gives set to an object of
 * that kind the server lists (the deployment under test for `deploymentId`), typed as the document
 * types the field: a made-up id names nothing, and the refusal would be for another field than
 * the rule's. A kind the server lists none of keeps the document's plain value.
 */
export async function bodyWith(
  ctx: Pick<CheckContext, "api" | "settings" | "servedDocument">,
  op: ServedOperation,
  hints: Record<string, unknown>,
  deploymentId: string,
): Promise<Record<string, unknown>> {
  const schema = op.bodySchema();
  const props = propertiesOf(schema);
  const hinted = Object.keys(hints).flatMap((k) => k.replace(/\?$/, "").toLowerCase().split("|"));
  const wanted = requiredOf(schema).filter((name) => NAMES_AN_OBJECT.test(name) && !hinted.includes(name.toLowerCase()));
  if (!wanted.length) return op.body(hints);
  const ids = new PathIds(ctx.api, (await documented(ctx)).operations, deploymentId, runPrefixOf(ctx.settings.seed));
  const found: Record<string, unknown> = {};
  for (const name of wanted) {
    const id = /^deployment_?id$/i.test(name) ? deploymentId : await ids.ofKind(name);
    if (id !== undefined) found[name] = typedAs(props[name], id);
    else Object.assign(found, await typedReference(ids, props, name));
  }
  return op.body({ ...hints, ...found });
}

/**
 * A reference whose kind a sibling names (`principalType` beside `principalId`: a user or a group):
 * the first kind of the sibling's enum the server lists an object of, and that object's id.
 */
async function typedReference(ids: PathIds, props: Record<string, any>, name: string): Promise<Record<string, unknown>> {
  const stem = name.replace(NAMES_AN_OBJECT, "");
  const type = Object.keys(props).find((p) => p.toLowerCase() === `${stem}type`.toLowerCase() || p.toLowerCase() === `${stem}_type`.toLowerCase());
  const kinds: unknown[] = (type && props[type]?.enum) || [];
  for (const kind of kinds) {
    const id = typeof kind === "string" ? await ids.ofKind(`${kind}Id`) : undefined;
    if (id !== undefined) return { [type!]: kind, [name]: typedAs(props[name], id) };
  }
  return {};
}

/** An id read from a list, as a documented field types it: a number where it takes only numbers, else a string. */
export function typedAs(schema: unknown, id: unknown): unknown {
  const types = isObject(schema) ? typesOf(schema) : [];
  const numeric = types.length > 0 && types.every((t) => t === "integer" || t === "number" || t === "null");
  return numeric && Number.isFinite(Number(id)) ? Number(id) : String(id);
}

/** The records of a list answer, or a failure: the rule is about what the list holds. */
export function records(ctx: CheckContext, res: Response, what: string): any[] {
  const list = listed(ctx.expect.json(res));
  if (!list)
    ctx.expect.fail(`${what}: the answer holds no list (items, data or an array)`, {
      expected: "a list of records",
      got: res.text.slice(0, 160),
      res,
      reason: "no-list",
    });
  return list!;
}

/**
 * Every record of a list (items, data or an array), following pageInfo.endCursor while it says
 * there is a next page. No maximum page size is shown: a size refused with 400 or 422 is halved.
 * `res` is the last page's answer (a failure points at it); a first page that is no 200 list fails
 * the check, whose rule is about what the list holds.
 */
export async function allRecords(
  ctx: CheckContext,
  path: string,
  query: Record<string, string | number>,
  what: string,
  walk: { first?: number; maxPages?: number } = {},
): Promise<{ res: Response; items: any[]; complete: boolean }> {
  const items: any[] = [];
  let size = walk.first ?? 50;
  const maxPages = Math.min(walk.maxPages ?? Number.POSITIVE_INFINITY, ctx.api.pageBudget);
  let after: string | undefined;
  for (let page = 0; ; page++) {
    let res = await ctx.api.get(path, { ...query, first: size, after });
    while ((res.status === 400 || res.status === 422) && size > 1) res = await ctx.api.get(path, { ...query, first: (size = Math.max(1, size >> 1)), after });
    ctx.expect.status(res, 200, `GET ${path} (${what})`, "list-status");
    items.push(...records(ctx, res, what));
    const info = res.body?.pageInfo;
    const last = !info?.hasNextPage || typeof info.endCursor !== "string" || info.endCursor === after;
    if (last || page + 1 >= maxPages) return { res, items, complete: last };
    after = info.endCursor;
  }
}

/** Does any string field of a record mention the term (case-insensitively)? */
export const mentions = (rec: unknown, term: string): boolean =>
  !!rec && typeof rec === "object" && Object.values(rec).some((v) => typeof v === "string" && v.toLowerCase().includes(term.toLowerCase()));

/** A branch of the run's own, from `from` (the server's default when omitted), with `extra` body hints (`activate`, a documented `personal`); deleted at cleanup. */
export async function ownBranch(ctx: CheckContext, doc: ServedModel, dep: string, from?: string, extra: Record<string, unknown> = {}): Promise<string> {
  const create = doc.requireNamed("createBranch", "creates a branch of the run's own");
  const remove = doc.requireNamed("deleteBranch", "removes the run's branch afterwards");
  const byName = remove.requireQueryParam("branchName", "the spec names branchName as the delete's query");
  const name = ctx.scratch.slug("branch");
  const res = await ctx.api.call(
    "createBranch",
    { deploymentId: dep },
    { body: create.body({ "name|branchName": name, ...(from ? { "from|parent|parentBranch|source": from } : {}), ...extra }) },
  );
  setup(ctx, res, `creating branch ${name}`);
  ctx.scratch.onCleanup(`delete branch ${name}`, async () => {
    await ctx.api.call("deleteBranch", { deploymentId: dep }, { query: { [byName]: name } });
  });
  return name;
}

/** How long a dbt sync start waits for a sync already running to end (a 409), and how often it asks again. */
const SYNC_IDLE_WAIT_MS = 30_000;
const SYNC_RETRY_GAP_MS = 500;

/**
 * Starts a dbt sync of the deployment. A server may run one sync at a time and answer 409 while
 * another runs (a sync of someone else's, or one a check before this one started): the start is
 * sent again, every half second, until that one ends, within a generous bound; the last answer is
 * the check's to judge.
 */
export async function startDbtSync(ctx: Pick<CheckContext, "api">, deploymentId: string, body: unknown): Promise<Response> {
  const until = Date.now() + SYNC_IDLE_WAIT_MS;
  for (;;) {
    const res = await ctx.api.call("startDbtSync", { deploymentId }, { body });
    if (res.status !== 409 || Date.now() >= until) return res;
    await new Promise((r) => setTimeout(r, SYNC_RETRY_GAP_MS));
  }
}

/**
 * Every branch of the list (a walk over every page), by name. Where the caller knows branches that
 * must be there (`present`), a walk that misses one walks again (walkAgainUntil): the run's other
 * checks delete branches beside this one, and a cursor that is a position then skips one.
 */
export async function branchesByName(ctx: CheckContext, dep: string, present: readonly string[] = []): Promise<Map<string, any>> {
  const walk = async () => {
    const { items } = await allRecords(ctx, pathTo("listBranches", { deploymentId: dep }), {}, "the branches list");
    return new Map(items.map((b) => [field(b, "name|branchName"), b]));
  };
  return walkAgainUntil(walk, (byName) => present.every((name) => byName.has(name)));
}

/**
 * A branch of the run's own in dev mode, the only state in which data-model files are written
 * (E14): `branch` (else a new one) with dev mode started on it, where the start names its branch.
 * Where it names none (dev mode on the caller's own branch: a server may hold one per user), a new
 * branch created in dev mode (facts: creating a branch takes {name, from?, activate?}). Either is
 * removed at cleanup.
 */
export async function devModeBranch(ctx: CheckContext, doc: ServedModel, dep: string, branch?: string): Promise<string> {
  const start = doc.requireNamed("startDevMode", "starts dev mode, the only state in which data-model files are written");
  if (start.bodyProperty("branchName|branch") === undefined && doc.findNamed("createBranch")?.bodyProperty("activate") !== undefined)
    return ownBranch(ctx, doc, dep, undefined, { activate: true });
  const named = branch ?? (await ownBranch(ctx, doc, dep));
  await devMode(ctx, doc, dep, named);
  return named;
}

/** Starts dev mode on the run's branch, stopped again at cleanup (when the document shows how). */
export async function devMode(ctx: CheckContext, doc: ServedModel, dep: string, branch: string): Promise<void> {
  const start = doc.requireNamed("startDevMode", "starts dev mode, the only state in which data-model files are written");
  setup(
    ctx,
    await ctx.api.call("startDevMode", { deploymentId: dep }, { body: start.body({ "branchName|branch": branch }) }),
    `starting dev mode on ${branch}`,
  );
  const key = `${dep}/${branch}`;
  stoppedBy(ctx).delete(key);
  if (doc.findNamed("stopDevMode"))
    ctx.scratch.onCleanup(`stop dev mode on ${branch}`, async () => void (stoppedBy(ctx).has(key) || (await stopDevMode(ctx, doc, dep, branch))));
}

/**
 * Per check (its ledger), the branches (`<deployment>/<branch>`) whose dev mode the check stopped
 * itself: its cleanup sends no second stop, which, where a stop names no branch, would end
 * whatever dev mode the caller holds by then.
 */
const stopped = new WeakMap<object, Set<string>>();
function stoppedBy(ctx: Pick<CheckContext, "scratch">): Set<string> {
  const set = stopped.get(ctx.scratch) ?? new Set<string>();
  stopped.set(ctx.scratch, set);
  return set;
}

/**
 * Stops dev mode on the branch, naming it where the document's stop takes a branch (query or
 * body), else the caller's own; undefined where the document shows no stop, or, with `namedOnly`,
 * where its stop names no branch: that one ends the caller's own dev mode, which may be on another
 * branch than this one (the caller's personal branch, on the blind Python and Perl servers).
 */
export async function stopDevMode(ctx: CheckContext, doc: ServedModel, dep: string, branch: string, { namedOnly = false } = {}): Promise<Response | undefined> {
  const stop = doc.findNamed("stopDevMode");
  if (!stop) return undefined;
  const param = stop.queryParam("branchName|branch")?.name;
  const inBody = stop.bodyProperty("branchName|branch") !== undefined;
  if (namedOnly && !param && !inBody) return undefined;
  const res = await ctx.api.call(
    "stopDevMode",
    { deploymentId: dep },
    { query: param ? { [param]: branch } : undefined, body: inBody ? stop.body({ "branchName|branch": branch }) : undefined },
  );
  if (ok2xx(res)) stoppedBy(ctx).add(`${dep}/${branch}`);
  return res;
}

/** A data-model file name of the run's own, where the platform keeps its cubes. */
export const modelFile = (ctx: Pick<CheckContext, "scratch">, label: string) => `model/cubes/${ctx.scratch.slug(label).replace(/-/g, "_")}.yml`;

/** The body that writes one data-model file on a branch, as the document spells it. */
export function fileWrite(op: ServedOperation, branch: string, fileName: string, content: string): Record<string, unknown> {
  return op.body({ "branchName|branch": branch, "files|items": [{ "fileName|path|name": fileName, "content|source|body": content }] });
}

/** How a document may name the files a delete removes. */
const FILE_NAMES = "fileName|fileNames|path|paths|name|names|files";

/** A delete of one data-model file: named in the query where the document puts it there, else in the body (one name or a list, as its schema types it). */
export function fileDelete(op: ServedOperation, branch: string, fileName: string): { query: Record<string, string>; body?: Record<string, unknown> } {
  const byName = op.queryParam(FILE_NAMES)?.name;
  const onBranch = op.queryParam("branchName|branch")?.name;
  const asList = Object.entries(propertiesOf(op.bodySchema())).some(([k, s]) => FILE_NAMES.split("|").includes(k) && (s as any)?.type === "array");
  const body = byName ? undefined : op.body({ "branchName|branch?": branch, [FILE_NAMES]: asList ? [fileName] : fileName });
  return { query: { ...(byName ? { [byName]: fileName } : {}), ...(onBranch ? { [onBranch]: branch } : {}) }, body };
}

/** The names of a branch's data-model files (every page). */
export async function fileNames(ctx: CheckContext, doc: ServedModel, dep: string, branch: string): Promise<string[]> {
  const list = doc.requireNamed("listDataModelFiles", "lists a branch's files");
  const param = list.requireQueryParam("branchName|branch", "names the branch whose files are listed");
  const { items } = await allRecords(ctx, pathTo("listDataModelFiles", { deploymentId: dep }), { [param]: branch }, "the data-model files list");
  return items.map((f) => field(f, "fileName|path|name"));
}

/** Every property name a body or its documented schema holds, at any depth (the words a refusal may name). */
function fieldNames(body: unknown, schema: unknown, into = new Set<string>(), depth = 0): Set<string> {
  if (depth > 6) return into;
  if (Array.isArray(body)) for (const v of body) fieldNames(v, undefined, into, depth + 1);
  else if (isObject(body))
    for (const [k, v] of Object.entries(body)) {
      into.add(k);
      fieldNames(v, undefined, into, depth + 1);
    }
  for (const [k, s] of Object.entries(propertiesOf(schema))) {
    into.add(k);
    fieldNames(undefined, (s as any)?.items ?? s, into, depth + 1);
  }
  return into;
}

const namesWord = (text: string, word: string) =>
  new RegExp(`(^|[^A-Za-z0-9_])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^A-Za-z0-9_])`, "i").test(text);

/** The body of a rule's request, its documented schema, and the field names and values the rule is about. */
export type Sent = { body: unknown; op?: Pick<ServedOperation, "bodySchema">; underTest: string[] };

/** NotVerifiable, with the server's words, where a 4xx names a field of the body other than the rule's (see `accepted`). */
export function unlessRefusedElsewhere(res: Response, sent: Sent, what: string): void {
  if (res.status < 400 || res.status >= 500) return;
  const words = res.text.slice(0, 400);
  const other = [...fieldNames(sent.body, sent.op?.bodySchema())].filter((f) => !sent.underTest.includes(f) && namesWord(words, f));
  if (other.length && !sent.underTest.some((u) => namesWord(words, u)))
    throw new NotVerifiable(`${what}: refused for ${other.join(", ")}, not what the rule is about (the server: ${res.status} ${words.slice(0, 200)})`);
}

/**
 * The rule's request accepted (a 2xx), judged as the rule asks. A refusal (4xx) whose words name a
 * field of the body or of its documented schema other than the ones the rule is about (`underTest`:
 * field names and values), and none of those, is the server asking for something the spec does not
 * show (a `workbookId` it requires, a type it gives another field): the rule is not verifiable
 * there, and the server's words say why; never a failure of the rule.
 */
export function accepted(
  ctx: Pick<CheckContext, "expect">,
  res: Response,
  sent: Sent,
  what: string,
  reason: Parameters<CheckContext["expect"]["that"]>[2]["reason"],
): void {
  unlessRefusedElsewhere(res, sent, what);
  ctx.expect.that(res.status >= 200 && res.status < 300, what, { expected: "2xx", got: `${res.status} ${res.text.slice(0, 160)}`, res, reason });
}

/** A 2xx: where E14 names no status, any success HTTP gives the method. */
export const ok2xx = (res: Response) => res.status >= 200 && res.status < 300;

/** The status and the start of the body, as a finding shows what the server answered. */
export const shownStatus = (res: Response) => `${res.status} ${res.text.slice(0, 160)}`;
