import fc from "fast-check";
import type { Response } from "../../core/transport/http.js";
import { statusLine } from "../../core/api/expect.js";
import type { ReasonKey } from "../../core/model/reasons.js";
import type { DocumentSchemas } from "../../core/served/document-schemas.js";
import { documentedResponse, mediaMatches, mediaType, type Operation, operationsOf, type Parameter } from "../../core/served/served-document.js";
import { optInGranted, type RunSettings } from "../../core/api/settings.js";
import { writeClassOf } from "../../core/transport/client.js";
import type { WriteClass } from "../../core/api/operations.js";
import { conforms, NotGenerated, validValues } from "../../generators/index.js";
import { merge } from "../../generators/schema-shape.js";

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
