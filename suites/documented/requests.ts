import fc from "fast-check";
import type { Api } from "../../core/transport/api.js";
import type { Response } from "../../core/transport/http.js";
import { statusLine } from "../../core/model/expect.js";
import type { ReasonKey } from "../../core/model/reasons.js";
import {
  type DocumentSchemas,
  documentedResponse,
  mediaMatches,
  mediaType,
  type Operation,
  operationsOf,
  type Parameter,
} from "../../core/served/served-document.js";
import { optInGranted, type RunSettings } from "../../core/run/settings.js";
import { writeClassOf } from "../../core/api/client.js";
import type { WriteClass } from "../../core/api/operations.js";
import { conforms, NotGenerated, validValues } from "../../generators/index.js";
import { merge } from "../../generators/schema-shape.js";
import { matchOperation } from "../../core/api/match.js";

/** The first array of records an answer carries: the answer itself, `items`, `data`, or an array under `data`. */
function firstRecords(body: any): any[] {
  const candidates = [body, body?.items, body?.data, ...(body?.data && typeof body.data === "object" ? Object.values(body.data) : [])];
  return (candidates.find((c) => Array.isArray(c) && c.some((x) => x && typeof x === "object")) ?? []).filter((x: any) => x && typeof x === "object");
}

/** Pages a search for an id of the named kind reads at most. */
const MAX_ID_PAGES = 10;

const isDeploymentParam = (name: string) => /^deployment_?id$/i.test(name);
/** A parameter that names an object of some kind: `folderId`, `user_id`, `branchName`. */
const NAMES_OBJECT = /(_?id|Id|Name)$/;

/**
 * Values for path placeholders, from what the run discovered: the deployment under test, and for
 * any other the first record of the named kind in its collection (the documented GET of the path
 * up to it), by the placeholder's own name or `id`. Undefined where no such list exists or it is empty.
 */
export class PathIds {
  private readonly lists = new Map<string, Promise<any[]>>();
  /** Ids of objects the run made, by the placeholder name that addresses them: sub-resources go under them. */
  private readonly pinned = new Map<string, string>();
  private readonly resolving = new Set<string>();
  /**
   * `runPrefix` starts the names of what this run creates (core/ledger/scratch.ts): those objects come and
   * go while checks run side by side, so an id is taken from them only when nothing else is listed.
   */
  constructor(
    private readonly api: Api,
    private readonly ops: Operation[],
    private readonly deploymentId: string,
    private readonly runPrefix?: string,
  ) {}

  /**
   * Chains of several resources run at once (suites/documented/chains.ts): one filling at a time, so
   * that the guard against a kind that names itself (`resolving`) never takes another chain's search for one.
   */
  private queue: Promise<unknown> = Promise.resolve();
  private serially<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  fill(path: string): Promise<string | undefined> {
    return this.serially(() => this.fillNow(path));
  }

  private async fillNow(path: string): Promise<string | undefined> {
    let out = "";
    let rest = path;
    for (let m = /\{([^}]+)\}/.exec(rest); m; m = /\{([^}]+)\}/.exec(rest)) {
      const before = rest.slice(0, m.index);
      const value = await this.valueFor(m[1], out + before.replace(/\/$/, ""));
      if (value === undefined) return undefined;
      out += before + encodeURIComponent(value);
      rest = rest.slice(m.index + m[0].length);
    }
    return out + rest;
  }

  /** From now on `{name}` (and a body field of that name) means this object of the run's own. */
  pin(name: string, id: string): void {
    this.pinned.set(name, id);
  }

  pinnedAs(name: string): string | undefined {
    return this.pinned.get(name);
  }

  /**
   * Values of the optional query parameters of a read that name an object of a kind the document
   * lists (`folderId`, `branchName`): a discovered one, as a client would send, where a made-up one
   * would only read as missing.
   */
  knownQuery(op: Operation): Promise<Record<string, string>> {
    return this.serially(() => this.knownQueryNow(op));
  }

  private async knownQueryNow(op: Operation): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const p of op.parameters.filter((x) => x.in === "query" && !x.required && NAMES_OBJECT.test(x.name) && !isDeploymentParam(x.name))) {
      const v = await this.byKind(p.name);
      if (v !== undefined) out[p.name] = v;
    }
    return out;
  }

  /**
   * An object of the kind a name gives (`userId`, `branchName`: user, branch) from the list the
   * document serves of that kind (the GET whose path ends in its plural): its `name` for a
   * `…Name`, else the named field or its `id`.
   */
  ofKind(name: string): Promise<string | undefined> {
    return this.serially(() => this.byKind(name));
  }

  private async byKind(name: string): Promise<string | undefined> {
    const kind = name.replace(NAMES_OBJECT, "").toLowerCase();
    // A list whose own path names an object of the kind it lists is no source of one.
    if (!kind || this.resolving.has(kind)) return undefined;
    this.resolving.add(kind);
    const plurals = [`${kind}s`, `${kind}es`, kind.replace(/y$/, "ies")];
    const gets = this.ops.filter((o) => o.method === "GET");
    const last = (o: Operation) => o.path.replace(/\/$/, "").split("/").pop()!.toLowerCase();
    // Where no list is named by the plural itself, one whose name ends in it: `tenantId` and
    // `embedTenantId` name an embed tenant (`/embed-tenants`).
    const exact = gets.filter((o) => plurals.includes(last(o)));
    const lists = exact.length ? exact : gets.filter((o) => plurals.some((p) => last(o).replace(/[-_]/g, "").endsWith(p)));
    try {
      // The first list of the kind that can be addressed and holds one (a repository's branches need an owner; a deployment's do not).
      for (const list of lists) {
        const path = await this.fillNow(list.path.replace(/\/$/, ""));
        const value = path === undefined ? undefined : await this.firstOf(path, /name$/i.test(name) ? "name" : name, kind);
        if (value !== undefined) return value;
      }
      return undefined;
    } finally {
      this.resolving.delete(kind);
    }
  }

  private async valueFor(name: string, collection: string): Promise<string | undefined> {
    if (isDeploymentParam(name)) return this.deploymentId;
    if (this.pinned.has(name)) return this.pinned.get(name);
    if (!matchOperation(this.ops, "GET", collection)) return this.byKind(name);
    const kind = name.replace(/_?id$/i, "").toLowerCase();
    return this.firstOf(collection, name, kind);
  }

  /** The first record of the kind that a collection lists (not the run's own where another is listed): its field `name`, else its id. */
  private async firstOf(collection: string, name: string, kind: string): Promise<string | undefined> {
    // A list may hold several kinds (E8: FOLDER, WORKBOOK, REPORT): `workbookId` names one of type WORKBOOK where records say their type.
    const isOfKind = (x: any) => typeof x.type !== "string" || x.type.toLowerCase() === kind;
    const key = `${collection} ${kind}`;
    let records = this.lists.get(key);
    if (!records) {
      records = this.recordsUntil(collection, isOfKind).catch(() => []);
      this.lists.set(key, records);
    }
    const named = (await records).filter((x) => x[name] !== undefined || x.id !== undefined);
    const ofKind = named.filter(isOfKind);
    const candidates = ofKind.length ? ofKind : named;
    const first = candidates.find((x) => !this.ownedByRun(x)) ?? candidates[0];
    const v = first?.[name] ?? first?.id;
    return v === undefined || v === null ? undefined : String(v);
  }

  /**
   * The records of a collection, page after page (cursor style, where its GET documents `after`)
   * until one of the named kind, not this run's own, shows: no order of a list is a rule, so a
   * first page may hold other kinds only (E8 may list every REPORT before the workbooks).
   */
  private async recordsUntil(collection: string, isOfKind: (x: any) => boolean): Promise<any[]> {
    const op = matchOperation(this.ops, "GET", collection)?.operation;
    const paged = op?.parameters.some((p) => p.in === "query" && p.name === "after");
    const out: any[] = [];
    let query: Record<string, string> = {};
    for (let page = 0; page < MAX_ID_PAGES; page++) {
      const r = await this.api.get(collection, query);
      if (r.status !== 200 || !r.isJson) break;
      out.push(...firstRecords(r.body));
      const next = r.body?.pageInfo;
      if (out.some((x) => isOfKind(x) && !this.ownedByRun(x)) || !paged || next?.hasNextPage !== true || typeof next.endCursor !== "string") break;
      query = { after: next.endCursor };
    }
    return out;
  }

  private ownedByRun(record: Record<string, unknown>): boolean {
    return this.runPrefix !== undefined && Object.values(record).some((v) => typeof v === "string" && v.startsWith(this.runPrefix!));
  }
}

/** Query parameters a generated value says nothing meaningful with: opaque cursors only the server can issue. */
const CURSOR = /^(after|before|cursor|page_?token|next)$/i;
/** Offset style and cursor style on one list: some servers refuse the mix (facts), so one style a request. */
const OFFSET_STYLE = new Set(["offset", "limit"]);
const CURSOR_STYLE = new Set(["first", "after", "last", "before"]);

/** A query value as sent: scalars only (null and structures are not a query string's to carry). */
const scalar = (v: unknown) => (typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? v : undefined);

/**
 * The query parameters the spec's own document (schemas/openapi.json) states for the same
 * operation, by name: a served document may type one more loosely (`number` where the spec says
 * integer), and a generated request obeys the types and bounds the spec states.
 */
export function specQueryParameters(specDoc: any, op: Operation): Map<string, Parameter> {
  for (const spec of operationsOf(specDoc)) if (spec.key === op.key) return new Map(spec.parameters.filter((p) => p.in === "query").map((p) => [p.name, p]));
  return new Map();
}

/** A parameter's schema narrowed by the spec's: both must hold (`number` and `integer|null` give integer). */
const narrowed = (p: Parameter, spec: Map<string, Parameter>) =>
  spec.get(p.name)?.schema ? { ...p, schema: merge(p.schema ?? {}, spec.get(p.name)!.schema) } : p;

/**
 * Valid queries of an operation: required parameters always, optional ones sometimes, one pagination
 * style. An optional parameter whose schema gives no value (NotGenerated) is left out; one that names
 * an object the run discovered (`known`) names that object.
 */
export function queryArbitrary(
  op: Operation,
  spec: Map<string, Parameter> = new Map(),
  known: Record<string, string> = {},
): fc.Arbitrary<Record<string, string | number | boolean | undefined>> {
  const candidates = op.parameters.filter((p) => p.in === "query" && (p.required || !CURSOR.test(p.name))).map((p) => narrowed(p, spec));
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of candidates) {
    // An object the run discovered (PathIds.knownQuery), as a client names one: only where its id
    // is a value the parameter takes (a fractional id read from a record names no object of an integer filter).
    if (p.name in known && takes(p, known[p.name])) {
      model[p.name] = fc.option(fc.constant(known[p.name]), { nil: undefined });
      continue;
    }
    try {
      const values = validValues(p.schema, { maxItems: 2, name: `${op.method} ${op.path} query ${p.name}` });
      model[p.name] = p.required ? values : fc.option(values, { nil: undefined });
    } catch (err) {
      if (p.required || !(err instanceof NotGenerated)) throw err;
    }
  }
  const usable = candidates.filter((p) => p.name in model);
  const styles = usable.some((p) => OFFSET_STYLE.has(p.name)) && usable.some((p) => CURSOR_STYLE.has(p.name));
  return fc.tuple(fc.record(model), fc.boolean()).map(([q, offsetStyle]) => {
    const out: Record<string, string | number | boolean | undefined> = {};
    for (const p of usable) {
      if (styles && !p.required && (offsetStyle ? CURSOR_STYLE : OFFSET_STYLE).has(p.name)) continue;
      out[p.name] = scalar(q[p.name]);
    }
    return out;
  });
}

/** Whether a value read from a record is one the parameter's schema takes, as a query string spells it (`7` for an integer). */
function takes(p: Parameter, value: string): boolean {
  if (!p.schema) return true;
  const accepts = conforms(p.schema);
  const asNumber = value.trim() === "" ? Number.NaN : Number(value);
  return accepts(value) || (Number.isFinite(asNumber) && accepts(asNumber));
}

/**
 * Whether a generated query names an object the check made up (`folderId=33696975`): a 404 may be
 * the server's answer to it. Free text and filters by value (search, eventName) name no object: a
 * 404 to them is a missing route.
 */
export const namesMadeUpValue = (query: Record<string, unknown>) => Object.entries(query).some(([k, v]) => v !== undefined && /(^id|Id|_id)$/.test(k));

/** Page sizes (Pagination styles): past a documented maximum, a server may clamp instead of refusing (facts: neither is published). */
const PAGE_SIZES = new Set(["limit", "first"]);

/**
 * One value per rule a query parameter's schema states that a query string can break; none for
 * free text. `clampable`: a page size past its maximum, which a page of at most that many items honours too.
 */
export function invalidQueryValues(p: Parameter): { value: string; breaks: string; clampable?: number }[] {
  const s = p.schema ?? {};
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  const out: { value: string; breaks: string; clampable?: number }[] = [];
  if (s.enum && !types.includes("null")) out.push({ value: "cf-not-a-listed-value", breaks: `enum ${JSON.stringify(s.enum)}` });
  else if (types.length && types.every((t) => t === "integer" || t === "number" || t === "null"))
    out.push({ value: "cf-not-a-number", breaks: `type ${types.join("|")}` });
  else if (types.length && types.every((t) => t === "boolean")) out.push({ value: "cf-maybe", breaks: "type boolean" });
  if (typeof s.minimum === "number") out.push({ value: String(Math.ceil(s.minimum) - 1), breaks: `minimum ${s.minimum}` });
  if (typeof s.maximum === "number")
    out.push({ value: String(Math.floor(s.maximum) + 1), breaks: `maximum ${s.maximum}`, ...(PAGE_SIZES.has(p.name) ? { clampable: s.maximum } : {}) });
  if (types.includes("string") && (s.format === "date" || s.format === "date-time") && !s.enum)
    out.push({ value: "cf-not-a-date", breaks: `format ${s.format}` });
  return out;
}

/** An operation's write class, read from its row of the table (core/api/operations.ts); a write the table does not name is "unnamed-operations". */
export const writeClass = (op: Pick<Operation, "method" | "path">): WriteClass => writeClassOf(op.method, op.path);

/**
 * The opt-in under which a document-driven check may send an operation no check sends otherwise,
 * by a check that declares it (core/model/needs.ts): a deployment's lifecycle (create, its setup
 * wizard, delete) or the git operations (commit, pull, merge, merge-to-default, connecting a repository).
 */
export type OptIn = "deployment-lifecycle" | "git-operations";
export function optInOf(op: Pick<Operation, "method" | "path">): OptIn | undefined {
  const c = writeClass(op);
  return c === "deployment-lifecycle" || c === "git-operations" ? c : undefined;
}

/**
 * Whether a document-driven check may send the operation with a valid key and a body: a read; a
 * plain write under --allow-writes; an admin's or an unnamed one under its opt-in; a lifecycle or
 * git operation only by a check sending under that opt-in. Never what the run cannot undo or does
 * not own (environment variables, a deployment's settings, builds, syncs, dev mode, branches).
 */
export function mayWrite(op: Pick<Operation, "method" | "path">, settings: RunSettings, optIn?: OptIn): boolean {
  const c = writeClass(op);
  switch (c) {
    case "read":
      return true;
    case "writes":
      return settings.writes;
    case "admin-writes":
    case "unnamed-operations":
      return optInGranted(c, settings) === true;
    case "deployment-lifecycle":
    case "git-operations":
      return optIn === c && optInGranted(c, settings) === true;
    default:
      return false;
  }
}

/** Why an answer contradicts the operation's document (status, content type, body schema), or undefined. */
export function contradiction(
  op: Operation,
  res: Response,
  schemas: DocumentSchemas,
): { reason: ReasonKey; what: string; expected: string; got: string } | undefined {
  const documented = documentedResponse(op, res.status);
  const where = `${op.method} ${op.path}`;
  if (!documented)
    return {
      reason: "undocumented-status",
      what: `${where} answered a status its document does not list`,
      expected: Object.keys(op.responses).join(" or "),
      got: statusLine(res),
    };
  const types = Object.keys(documented.media);
  const served = mediaType(res.headers["content-type"]);
  if (types.length && res.text.length && !mediaMatches(types, served))
    return {
      reason: "content-type",
      what: `${where} answered ${res.status} with a content type its document does not list`,
      expected: types.join(" or "),
      got: served || "no content-type",
    };
  const schema = documented.media[types.find((t) => mediaMatches([t], served)) ?? ""];
  if (schema === undefined || !/json/.test(served)) return undefined;
  if (!res.isJson)
    return { reason: "not-json", what: `${where} answered ${res.status} with a body that is not JSON`, expected: "a JSON body", got: statusLine(res) };
  const errors = schemas.errors(schema, res.body);
  if (errors?.length)
    return {
      reason: "schema",
      what: `${where} answered ${res.status} with a body its documented schema does not accept`,
      expected: "a body valid under the documented schema",
      got: errors.join("; "),
    };
  return undefined;
}
