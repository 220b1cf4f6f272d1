import fc from "fast-check";
import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { type Addressed, addressedBy, createdBy, propertiesOf, recordOf, requiredOf } from "../../core/served/answers.js";
import type { Operation } from "../../core/served/served-document.js";
import { operationKey } from "../../core/api/match.js";
import { conforms, NotGenerated, validValues } from "../../generators/index.js";
import { mayWrite, type OptIn, optInOf } from "./documented-requests.js";
import type { PathIds } from "./path-ids.js";
import { isObject } from "./values.js";
import { carriesPrefix, entriesOf, listAll } from "../../core/ledger/ownership.js";
import type { ReadBack } from "../../core/ledger/scratch.js";
import { API_PREFIX, BUILD_PREFIX, operation } from "../../core/api/operations.js";
import { unwrapped } from "../../core/ledger/door-keyless.js";

/**
 * A resource the document lets a client create and then address: the create, and the operations
 * on one of its objects (core/served/answers.ts: the create's OpenAPI links, else the paths).
 */
export interface Resource extends Addressed {
  create: Operation;
  /** The list of what it makes: the GET of the create's path, or of the same path under the other prefix (Base address: two prefixes, one host). */
  list?: Operation;
}

/** The same path under the other of the spec's two prefixes (Base address). */
const OTHER_PREFIX = (path: string) =>
  path.startsWith(`${BUILD_PREFIX}/`)
    ? API_PREFIX + path.slice(BUILD_PREFIX.length)
    : path.startsWith(`${API_PREFIX}/`)
      ? BUILD_PREFIX + path.slice(API_PREFIX.length)
      : path;

function listOf(ops: Operation[], createPath: string): Operation | undefined {
  const bare = createPath.replace(/\/$/, "");
  return [bare, `${bare}/`, OTHER_PREFIX(bare), `${OTHER_PREFIX(bare)}/`].map((p) => ops.find((o) => o.method === "GET" && o.path === p)).find(Boolean);
}

/** The folder create facts.md names: what it makes is a workspace item, which the run's cleanup removes by the workspace bulk delete. */
const FOLDER_CREATE = (() => {
  const o = operation("createFolder");
  return operationKey(o.method, o.path);
})();

/**
 * Every resource of the document a run may create (core: mayWrite) and then remove, with how to
 * address what it made. A create the document gives no delete for is never sent (what it made
 * could not be removed: a user the document deletes only in bulk), but a workspace folder's.
 */
export function resourcesOf(ops: Operation[], settings: CheckContext["settings"], optIn?: OptIn): Resource[] {
  return ops
    .filter((o) => o.method === "POST" && mayWrite(o, settings, optIn) && (optIn === undefined || optInOf(o) === optIn))
    .flatMap((create) => {
      const addressed = addressedAnywhere(create, ops);
      // An opted-in create is sent only where what it makes is deleted by an operation of the same opt-in.
      if (optIn && (!addressed?.remove || !mayWrite(addressed.remove, settings, optIn))) return [];
      // An update the run may not send (a deployment's PUT is E6, with its own opt-in) is left out of the chain.
      const update = addressed?.update && mayWrite(addressed.update, settings, optIn) ? addressed.update : undefined;
      return addressed && (addressed.remove || create.key === FOLDER_CREATE) ? [{ create, ...addressed, update, list: listOf(ops, create.path) }] : [];
    });
}

/**
 * What addresses the objects of a create: its links and paths, completed by the paths of the same
 * collection under the other prefix (a deployment is created on /build/api/v1, deleted on /api/v1).
 */
function addressedAnywhere(create: Operation, ops: Operation[]): Addressed | undefined {
  const own = addressedBy(create, ops);
  const other = addressedBy({ ...create, path: OTHER_PREFIX(create.path.replace(/\/$/, "")), responses: {} }, ops);
  if (!own || !other) return own ?? other;
  return { read: own.read ?? other.read, update: own.update ?? other.update, remove: own.remove ?? other.remove };
}

/** The id of what the create made, where its document says (a link, the record's id, the Location header). */
export function createdId(r: Resource, res: Response): string | undefined {
  const id = createdBy(r.create, res).id ?? soleRecord(res)?.id;
  return id === undefined || id === null || id === "" ? undefined : String(id);
}

/** The most single keys a created record is looked for under (`{data: {deployment: {...}}}` is two). */
const MAX_SOLE_KEYS = 3;

/**
 * The one object an answer wraps (`{data: {...}}`, `{data: {deployment: {...}}}`): a document may
 * show a wrapper without marking it required, and the record is under it all the same. The first
 * object with an `id`, going down through objects of one key each.
 */
function soleRecord(res: Response): Record<string, unknown> | undefined {
  let inner: unknown = res.isJson ? res.body : undefined;
  for (let depth = 0; depth <= MAX_SOLE_KEYS && isObject(inner); depth++) {
    if (depth > 0 && "id" in inner) return inner;
    const keys = Object.keys(inner);
    inner = keys.length === 1 ? inner[keys[0]] : undefined;
  }
  return undefined;
}

/** The path of an operation on what was created: its last placeholder is the id, the others filled as everywhere. */
export async function itemPath(ids: PathIds, op: Operation, id: string): Promise<string | undefined> {
  const last = op.path.lastIndexOf("{");
  const end = op.path.indexOf("}", last);
  return ids.fill(`${op.path.slice(0, last)}${encodeURIComponent(id)}${op.path.slice(end + 1)}`);
}

/** Fields a client names an object by: an external id is the client's own name for it too. */
const NAME_LIKE = /^(name|title|label|slug|displayName|external_?id)$/i;
/** The name-like fields that are shown, not parsed (no slug, no external id): where a check may give a name with punctuation. */
const DISPLAY_NAME = /^(name|title|label|displayName)$/i;
const EMAIL_LIKE = (key: string, schema: any) => /e-?mail/i.test(key) || schema?.format === "email";

/** The schema of a JSON request body, with its allOf parts merged into one object schema (what the generator reads). */
export function requestSchema(op: Operation): any {
  const schema = op.requestBody?.media["application/json"] ?? Object.values(op.requestBody?.media ?? {})[0];
  if (!schema || !Array.isArray(schema.allOf)) return schema;
  const { allOf: _parts, ...rest } = schema;
  return { ...rest, type: "object", properties: propertiesOf(schema), required: requiredOf(schema) };
}

/**
 * A body for a create or update: a valid value of the documented schema with only the required
 * properties (what a careful client sends; optional references to other objects would name
 * nothing), name-like strings being the run's own names and e-mail addresses the run's own
 * (`<prefix>-doc-N@example.com`), so that what it makes is recognisable and only that is removed;
 * a property named like the placeholder of an object the run made (`integrationId`,
 * `embedUserId`) names that object (`ref`). `shown` dresses a display name (name, title, label)
 * where a check needs one with punctuation in it.
 */
export function bodyFor(
  ctx: CheckContext,
  op: Operation,
  seed: number,
  ref: (name: string) => string | undefined = () => undefined,
  shown: (name: string) => string = (name) => name,
): unknown {
  const schema = requestSchema(op);
  if (!schema) return undefined;
  const [value] = fc.sample(validValues(schema, { maxItems: 1 }), { seed, numRuns: 1 });
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const props: Record<string, any> = schema.properties ?? {};
  // The run's name where the property takes it (its type, length and pattern, `string or null` too).
  const takes = (k: string, v: string) => props[k] !== undefined && conforms(props[k])(v);
  const ownName = (k: string) => {
    const name = NAME_LIKE.test(k) ? ctx.scratch.name("doc") : EMAIL_LIKE(k, props[k]) ? `${ctx.scratch.slug("doc")}@example.com` : undefined;
    // A display name as `shown` gives it (a comma, a quote), where the property takes it; else the plain one.
    const candidates = name !== undefined && DISPLAY_NAME.test(k) ? [shown(name), name] : [name];
    return candidates.find((n) => n !== undefined && takes(k, n));
  };
  const own = (k: string, v: unknown) => {
    const made = ref(k);
    if (made !== undefined) return props[k]?.type === "integer" || props[k]?.type === "number" ? Number(made) : made;
    return ownName(k) ?? v;
  };
  const required = new Set<string>(schema.required ?? []);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (required.has(k)) out[k] = own(k, v);
  for (const k of Object.keys(props)) {
    if (k in out || !(NAME_LIKE.test(k) || ref(k) !== undefined)) continue;
    const v = own(k, undefined);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** A drawn body, or the NotGenerated that names the schema it could not be drawn from: that one case is "not generated", the check goes on. */
export function drawnBody(draw: () => unknown): unknown {
  try {
    return draw();
  } catch (err) {
    if (err instanceof NotGenerated) return err;
    throw err;
  }
}

/**
 * A body that breaks its schema at `brokenAt`, with the name-like and e-mail properties it already
 * carries elsewhere set to the run's own: what a server wrongly makes of it is then recognisably
 * the run's, and cleanup can confirm and remove it (a property the break is about stays as drawn).
 */
export function ownNamed(ctx: CheckContext, op: Operation, value: unknown, brokenAt: string): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const props: Record<string, any> = requestSchema(op)?.properties ?? {};
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const k of Object.keys(out)) {
    if (
      brokenAt === `/${k}` ||
      brokenAt.startsWith(`/${k}/`) ||
      typeof out[k] !== "string" ||
      props[k]?.type !== "string" ||
      props[k]?.enum ||
      props[k]?.pattern
    )
      continue;
    if (EMAIL_LIKE(k, props[k])) out[k] = `${ctx.scratch.slug("doc")}@example.com`;
    else if (NAME_LIKE.test(k)) out[k] = ctx.scratch.name("doc");
  }
  return out;
}

/**
 * Whether a break at `brokenAt` falls on a field that carries the run's name (ownNamed): a server
 * that took such a body would make an object the run could not confirm as its own, nor remove.
 */
export function breaksOwnName(op: Operation, brokenAt: string): boolean {
  const props: Record<string, any> = requestSchema(op)?.properties ?? {};
  const k = brokenAt.split("/")[1];
  return k !== undefined && props[k]?.type === "string" && !props[k]?.enum && !props[k]?.pattern && (EMAIL_LIKE(k, props[k]) || NAME_LIKE.test(k));
}

/** The name of the placeholder that addresses one object of a resource (`/x/{integrationId}`: integrationId), or undefined. */
export function idPlaceholder(r: Resource): string | undefined {
  const path = (r.read ?? r.update ?? r.remove)?.path;
  return path ? /\{([^}]+)\}$/.exec(path)?.[1] : undefined;
}

/** Placeholders and required body properties of a create that name objects of other resources (`{tenantId}`, `embedUserId`). */
export function referencesOf(r: Resource, placeholders: Set<string>): string[] {
  const inPath = [...r.create.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const inBody = requiredOf(requestSchema(r.create));
  return [...new Set([...inPath, ...inBody])].filter((n) => placeholders.has(n));
}

/**
 * Whether a record is of an object made since this call: its id was not in the collection's list then (every page
 * the run's budget reads). An object with no field to carry the run's name (a policy, a token whose secret is
 * write-only) is the run's when its id was not listed before and the create's answer named it. A collection with no
 * list (404, 405), or one that cannot be read whole, proves nothing: then no record is.
 */
export async function madeSince(ctx: CheckContext, collection: string): Promise<(record: unknown) => boolean> {
  const first = await ctx.api.get(collection);
  if (first.status !== 200 || !first.isJson) return () => false;
  const entries = await listAll(ctx.api, collection).catch(() => undefined);
  if (!entries) return () => false;
  const listed = new Set(entries.map((e: any) => String(e?.id)));
  return (record) => {
    const id = (record as { id?: unknown } | undefined)?.id;
    return (typeof id === "string" || typeof id === "number") && !listed.has(String(id));
  };
}

/**
 * Registers the removal of what a create made: its delete operation, done only when the read of
 * its kind (or the list it was created in) shows an object named with the check's prefix; or (a
 * workspace item the document gives no delete for) the ledger's workspace cleanup. Undefined when
 * neither can remove it. A read shows it as the run's when the object is named with the check's
 * prefix, or `alsoOwn` holds of its record: the chain that made it judges so too (it names another
 * object the run made, or sits under one), and an interrupted chain leaves that judgement to the ledger.
 */
export function removeLater(
  ctx: CheckContext,
  r: Resource,
  path: string | undefined,
  res: Response,
  deploymentId: string,
  alsoOwn?: (record: unknown) => boolean,
): Registered | undefined {
  const id = createdId(r, res);
  if (r.remove && path && id !== undefined) {
    const list = listPath(r, path);
    return ctx.scratch.removeIfOwn({
      what: `${r.remove.method} ${path}`,
      // Absent from the whole list reads as gone, as a 404 of its own read would.
      // The object's own read where it shares the delete's path; else its list (a deployment's read is of its settings).
      read: async () => (r.read?.path === r.remove!.path ? ctx.api.get(path) : listedRecord(await listAll(ctx.api, list), id)),
      owns: (read) => readsAsOwn(ctx, read, id) || (!!alsoOwn && read.status === 200 && read.isJson && alsoOwn(recordIn(read.body, id))),
      remove: () => ctx.api.delete(path),
      removal: `curl -X DELETE '${ctx.api.baseUrl}${path}' -H 'Authorization: Bearer $API_KEY'`,
      collection: { list, remove: (found) => ctx.api.delete(`${list}/${encodeURIComponent(found)}`) },
    });
  }
  const b = recordOf(r.create, res);
  if (Number.isInteger(b?.id) && ["WORKBOOK", "REPORT", "FOLDER"].includes(b?.type)) {
    const item = { type: b.type, id: b.id };
    ctx.scratch.track(deploymentId, item, { res });
    return { removed: () => ctx.scratch.forget(deploymentId, item) };
  }
  return undefined;
}

/** What the ledger holds for an object a check made: `removed()` once the check deleted it and read it gone. */
export interface Registered {
  removed(): void;
}

/** Whether a record names, in a field called as a placeholder, an object the run made there (a token's `integrationId`). */
export function namesOwnObject(record: unknown, pinnedAs: (name: string) => string | undefined): boolean {
  return !!record && typeof record === "object" && Object.entries(record).some(([k, v]) => pinnedAs(k) !== undefined && String(v) === pinnedAs(k));
}

/** Whether a read (of the object, or of its collection) shows the object `id` named with the check's prefix. */
export function readsAsOwn(ctx: CheckContext, read: ReadBack, id: string): boolean {
  return read.status === 200 && read.isJson && carriesPrefix(recordIn(read.body, id), ctx.scratch.prefix);
}

/** The record of `id` a read shows: the body itself (or under its wrapper, core/ledger/door-keyless.ts), or its entry in a list. */
function recordIn(body: any, id: string): any {
  const one = unwrapped(body) as any;
  if (one && typeof one === "object" && !Array.isArray(one) && String(one.id) === id) return one;
  return entriesOf(body).find((e) => String(e?.id) === id);
}

function listedRecord(entries: any[], id: string): ReadBack {
  const found = entries.find((e) => String(e?.id) === id);
  return found ? { status: 200, isJson: true, body: found } : { status: 404, isJson: false, body: undefined };
}

/** The path of the list of what a resource makes, its placeholders filled as the item's path filled them. */
export function listPath(r: Resource, filledItem: string): string {
  return fillLike(r.list?.path ?? r.create.path, filledItem);
}

/** The collection path of a create, with its placeholders filled as the item's path filled them. */
function fillLike(template: string, filledItem: string): string {
  const parts = template.split("/");
  const filled = filledItem.split("/");
  return parts.map((p, i) => (/^\{.*\}$/.test(p) ? (filled[i] ?? p) : p)).join("/");
}
