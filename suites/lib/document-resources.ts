import fc from "fast-check";
import type { CheckContext } from "../../core/context.js";
import type { Response } from "../../core/http.js";
import { normalisePath, type Operation } from "../../core/served-document.js";
import { validValues } from "../../generators/index.js";
import { mayWrite, type PathIds } from "./document-requests.js";
import { carriesPrefix, entriesOf, listAll } from "../../core/ownership.js";
import type { ReadBack } from "../../core/scratch.js";

/**
 * A resource the document lets a client create and then address: the create (POST on a
 * collection), and the operations on one of its objects, found by the create's OpenAPI links or,
 * without links, by the paths (`POST /x` and `GET|PUT|PATCH|DELETE /x/{id}`).
 */
export interface Resource {
  create: Operation;
  read?: Operation;
  update?: Operation;
  remove?: Operation;
  /** Where the create's answer holds the created object's id (a JSON pointer; empty: `id` found by name). */
  idPointer: string;
}

/** A create of a workspace item, which the run removes by the workspace bulk delete whatever the document lists. */
const WORKSPACE_CREATE = /\/deployments\/\{[^}]+\}\/folders\/?$/;

const linked = (create: Operation, ops: Operation[]) =>
  Object.entries(create.responses)
    .filter(([status]) => /^2/.test(status))
    .flatMap(([, r]) => Object.values<any>(r.links ?? {}))
    .map((link) => ({ link, op: ops.find((o) => (link.operationId && o.operationId === link.operationId) || (typeof link.operationRef === "string" && link.operationRef.endsWith(o.pointer.slice(1)))) }))
    .filter((x): x is { link: any; op: Operation } => Boolean(x.op));

/**
 * Every resource of the document a run may create (core: mayWrite) and then delete, with how to
 * address what it made. A create the document gives no delete for is never sent (what it made
 * could not be removed), but a workspace folder's: the workspace bulk delete (E14) removes it.
 */
export function resourcesOf(ops: Operation[], settings: CheckContext["settings"]): Resource[] {
  const out: Resource[] = [];
  for (const create of ops.filter((o) => o.method === "POST" && mayWrite(o, settings))) {
    const byLink = linked(create, ops);
    const item = new RegExp(`^${normalisePath(create.path).replace(/[.*+?^$()|[\]\\]/g, "\\$&")}/\\{\\}$`);
    const items = byLink.length ? byLink.map((l) => l.op) : ops.filter((o) => item.test(normalisePath(o.path)));
    if (!items.length) continue;
    const expression = byLink.map((l) => Object.values<any>(l.link.parameters ?? {}).find((v) => typeof v === "string" && v.startsWith("$response.body#"))).find(Boolean);
    const find = (m: string) => items.find((o) => o.method === m);
    if (!find("DELETE") && !WORKSPACE_CREATE.test(create.path)) continue;
    out.push({ create, read: find("GET"), update: find("PUT") ?? find("PATCH"), remove: find("DELETE"), idPointer: expression ? expression.slice("$response.body#".length) : "" });
  }
  return out;
}

/** The id the create's answer names: at the link's pointer, else `id` at the top, under `data` or `item`. */
export function createdId(r: Resource, res: Response): string | undefined {
  const at = (v: any, pointer: string) => pointer.split("/").slice(1).reduce((x, k) => x?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], v);
  const v = r.idPointer ? at(res.body, r.idPointer) : (res.body?.id ?? res.body?.data?.id ?? res.body?.item?.id);
  return typeof v === "string" || typeof v === "number" ? String(v) : undefined;
}

/** The path of an operation on what was created: its last placeholder is the id, the others filled as everywhere. */
export async function itemPath(ids: PathIds, op: Operation, id: string): Promise<string | undefined> {
  const last = op.path.lastIndexOf("{");
  const end = op.path.indexOf("}", last);
  return ids.fill(`${op.path.slice(0, last)}${encodeURIComponent(id)}${op.path.slice(end + 1)}`);
}

const NAME_LIKE = /^(name|title|label|slug|displayName)$/i;
const EMAIL_LIKE = (key: string, schema: any) => /e-?mail/i.test(key) || schema?.format === "email";

/**
 * A body for a create or update: a valid value of the documented schema with only the required
 * properties (what a careful client sends; optional references to other objects would name
 * nothing), name-like strings being the run's own names and e-mail addresses the run's own
 * (`<prefix>-doc-N@example.com`), so that what it makes is recognisable and only that is removed.
 */
export function bodyFor(ctx: CheckContext, op: Operation, seed: number): unknown {
  const schema = op.requestBody?.media["application/json"] ?? Object.values(op.requestBody?.media ?? {})[0];
  if (!schema) return undefined;
  const [value] = fc.sample(validValues(schema, { maxItems: 1 }), { seed, numRuns: 1 });
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const required = new Set<string>(schema.required ?? []);
  const props = schema.properties ?? {};
  const own = (k: string, v: unknown) => (typeof v !== "string" || props[k]?.enum ? v : EMAIL_LIKE(k, props[k]) ? `${ctx.scratch.slug("doc")}@example.com` : NAME_LIKE.test(k) ? ctx.scratch.name("doc") : v);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (required.has(k)) out[k] = own(k, v);
  for (const k of Object.keys(props)) if (NAME_LIKE.test(k) && !(k in out) && props[k].type === "string" && !props[k].enum) out[k] = own(k, "");
  return out;
}

/**
 * Registers the removal of what a create made: its delete operation, done only when the read of
 * its kind (or the list it was created in) shows an object named with the check's prefix; or (a
 * workspace item the document gives no delete for) the ledger's workspace cleanup. False when
 * neither can remove it.
 */
export function removeLater(ctx: CheckContext, r: Resource, path: string | undefined, res: Response, deploymentId: string): boolean {
  const id = createdId(r, res);
  if (r.remove && path && id !== undefined) {
    const list = fillLike(r.create.path, path);
    ctx.scratch.removeIfOwn({
      what: `${r.remove.method} ${path}`,
      // Absent from the whole list reads as gone, as a 404 of its own read would.
      read: async () => (r.read ? ctx.api.get(path) : listedRecord(await listAll(ctx.api, list), id)),
      owns: (read) => readsAsOwn(ctx, read, id),
      remove: () => ctx.api.delete(path),
      removal: `curl -X DELETE '${ctx.api.baseUrl}${path}' -H 'Authorization: Bearer $API_KEY'`,
      collection: { list, remove: (found) => ctx.api.delete(`${list}/${encodeURIComponent(found)}`) },
    });
    return true;
  }
  const b = res.body;
  if (Number.isInteger(b?.id) && ["WORKBOOK", "REPORT", "FOLDER"].includes(b?.type)) {
    ctx.scratch.track(deploymentId, { type: b.type, id: b.id }, { res });
    return true;
  }
  return false;
}

/** Whether a read (of the object, or of its collection) shows the object `id` named with the check's prefix. */
export function readsAsOwn(ctx: CheckContext, read: ReadBack, id: string): boolean {
  return read.status === 200 && read.isJson && carriesPrefix(recordOf(read.body, id), ctx.scratch.prefix);
}

/** The record of `id` a read shows: the body itself (or its data/item), or its entry in a list. */
function recordOf(body: any, id: string): any {
  for (const r of [body, body?.data, body?.item]) if (r && typeof r === "object" && !Array.isArray(r) && String(r.id) === id) return r;
  return entriesOf(body).find((e) => String(e?.id) === id);
}

function listedRecord(entries: any[], id: string): ReadBack {
  const found = entries.find((e) => String(e?.id) === id);
  return found ? { status: 200, isJson: true, body: found } : { status: 404, isJson: false, body: undefined };
}

/** The collection path of a create, with its placeholders filled as the item's path filled them. */
function fillLike(template: string, filledItem: string): string {
  const parts = template.split("/");
  const filled = filledItem.split("/");
  return parts.map((p, i) => (/^\{.*\}$/.test(p) ? filled[i] ?? p : p)).join("/");
}
