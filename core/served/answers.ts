import type { Response } from "../transport/http.js";
import { documentedResponse, type Operation } from "./served-document.js";
import { isMemberPath } from "../api/match.js";
import { atPointer } from "../model/json-pointer.js";

/**
 * How the served document says an operation answers, read from the operation alone (dereferenced):
 * whether the object comes as it is or under a single wrapper property, where a create's new id
 * is, and which operations address what it made. E14 shows no shapes, so a server's own
 * documented wrapping, id name or status is read here instead of assumed away.
 */

/** The JSON schema of the answer an operation documents for a status (exact, `2XX`, `default`). */
export function answerSchema(op: Operation, status: number): any {
  const media = documentedResponse(op, status)?.media ?? {};
  const type = Object.keys(media).find((t) => /json/i.test(t));
  return type === undefined ? undefined : media[type];
}

/** The properties a schema states, its allOf parts merged (the document is dereferenced: no $ref is left). */
export function propertiesOf(schema: any): Record<string, any> {
  if (!schema || typeof schema !== "object") return {};
  return Object.assign({}, ...(Array.isArray(schema.allOf) ? schema.allOf.map(propertiesOf) : []), schema.properties ?? {});
}

/** The properties a schema requires, its allOf parts included. */
export function requiredOf(schema: any): string[] {
  if (!schema || typeof schema !== "object") return [];
  return [...new Set([...(Array.isArray(schema.allOf) ? schema.allOf.flatMap(requiredOf) : []), ...(Array.isArray(schema.required) ? schema.required : [])])];
}

const isObjectSchema = (s: any) => Boolean(s && typeof s === "object" && (s.type === "object" || (s.type === undefined && (s.properties || s.allOf))));

/**
 * The property the documented answer wraps its one object in (`{"data": {...}}`), or undefined
 * when the object comes as it is. A wrapper is the single property of the answer, required, and
 * itself an object: a list (an array under it) or a second property makes no wrapper.
 */
export function wrapperOf(op: Operation, status: number): string | undefined {
  return wrapperIn(answerSchema(op, status));
}

function wrapperIn(schema: any): string | undefined {
  const props = propertiesOf(schema);
  const names = Object.keys(props);
  if (names.length !== 1 || !requiredOf(schema).includes(names[0])) return undefined;
  return isObjectSchema(props[names[0]]) ? names[0] : undefined;
}

/** The most wrappers an answer is read through: a deeper nesting is the record's own shape. */
const MAX_WRAPPERS = 3;

/**
 * The wrappers the documented answer nests its one object in, outermost first (`["data",
 * "settings"]` for `{"data": {"settings": {...}}}`): wrapperOf's rule at each level. A settings-like
 * record is read and put back through them (core/ledger/records.ts).
 */
export function wrappersOf(op: Operation, status: number): string[] {
  const out: string[] = [];
  for (let schema = answerSchema(op, status), w = wrapperIn(schema); w !== undefined && out.length < MAX_WRAPPERS; w = wrapperIn(schema)) {
    out.push(w);
    schema = propertiesOf(schema)[w];
  }
  return out;
}

/** The object an answer carries: under its documented wrapper, else the body itself (an operation the document lacks: the body). */
export function recordOf(op: Operation | undefined, res: Response): any {
  const wrapper = res.isJson && op ? wrapperOf(op, res.status) : undefined;
  return wrapper === undefined ? res.body : res.body?.[wrapper];
}

/** The last path segment of a Location header (relative or absolute), decoded. */
function lastSegment(location: string | undefined): string | undefined {
  if (!location) return undefined;
  let path = location;
  try {
    path = new URL(location, "http://location.invalid").pathname;
  } catch {
    return undefined;
  }
  const seg = path.replace(/\/+$/, "").split("/").pop();
  return seg ? decodeURIComponent(seg) : undefined;
}

const usableId = (v: unknown): v is string | number => (typeof v === "string" && v !== "") || (typeof v === "number" && Number.isFinite(v));

/** The value a link's runtime expression names in an answer (`$response.body#/data/id`, `$response.header.Location`). */
function evaluate(expression: unknown, res: Response): unknown {
  if (typeof expression !== "string") return undefined;
  if (expression.startsWith("$response.body#")) return atPointer(res.body, expression.slice("$response.body#".length));
  const header = /^\$response\.header\.(.+)$/i.exec(expression)?.[1];
  return header ? lastSegment(res.headers[header.toLowerCase()]) : undefined;
}

/** What a create made, as its answer says it: the new object, its id and where it lives. */
export interface Created {
  /** The new object's id, or undefined when the answer names none where its document says. */
  id?: string | number;
  /** The object the answer carries (under its documented wrapper). */
  record: any;
  /** The Location header, when the answer sent one. */
  location?: string;
}

/**
 * The id of what a create made, in the order the document can say it: an OpenAPI link of the
 * answer (its parameter expression), the record's `id` (the documented schema, or the object
 * itself), then the `Location` header's last segment (typed as the record schema types `id`).
 */
export function createdBy(
  op: Operation | undefined,
  res: Response,
  links: { parameters?: Record<string, unknown> }[] = op ? linksOf(op, res.status) : [],
): Created {
  const record = recordOf(op, res);
  const location = res.headers.location;
  // A link may pass other values of the answer too (a parent's id): one that names an `id` goes first.
  const expressions = links
    .flatMap((l) => Object.values(l.parameters ?? {}))
    .sort((a, b) => Number(!/(\/id|header\.location)$/i.test(String(a))) - Number(!/(\/id|header\.location)$/i.test(String(b))));
  const fromLink = expressions.map((e) => evaluate(e, res)).find(usableId);
  const own = record && typeof record === "object" ? (record as Record<string, unknown>).id : undefined;
  const fromHeader = lastSegment(location);
  const schema = op && answerSchema(op, res.status);
  const wrapper = op && wrapperOf(op, res.status);
  const idType = propertiesOf(wrapper === undefined ? schema : propertiesOf(schema)[wrapper]).id?.type;
  const headerId = fromHeader !== undefined && (idType === "integer" || idType === "number") && /^-?\d+$/.test(fromHeader) ? Number(fromHeader) : fromHeader;
  const id = [fromLink, own, headerId].find(usableId);
  return { id, record, ...(location ? { location } : {}) };
}

/** The links a documented answer of the status carries. */
export function linksOf(op: Operation, status: number): { operationId?: string; operationRef?: string; parameters?: Record<string, unknown> }[] {
  return Object.values<any>(documentedResponse(op, status)?.links ?? {});
}

/** The operations on what a create makes. */
export interface Addressed {
  read?: Operation;
  update?: Operation;
  remove?: Operation;
}

/**
 * Which operations read, update and delete what a create makes: its 2xx answers' OpenAPI links
 * first; what the links do not name (a link to the read alone), the paths (`POST /x` and
 * `GET|PUT|PATCH|DELETE /x/{id}`).
 */
export function addressedBy(create: Operation, ops: Operation[]): Addressed | undefined {
  const byLink = Object.entries(create.responses)
    .filter(([status]) => /^2/.test(status))
    .flatMap(([, r]) => Object.values<any>(r.links ?? {}))
    .map((link) =>
      ops.find(
        (o) =>
          (link.operationId && o.operationId === link.operationId) || (typeof link.operationRef === "string" && link.operationRef.endsWith(o.pointer.slice(1))),
      ),
    )
    .filter((o): o is Operation => Boolean(o));
  const byPath = ops.filter((o) => isMemberPath(create.path, o.path));
  if (!byLink.length && !byPath.length) return undefined;
  const find = (m: string) => byLink.find((o) => o.method === m) ?? byPath.find((o) => o.method === m);
  return { read: find("GET"), update: find("PUT") ?? find("PATCH"), remove: find("DELETE") };
}
