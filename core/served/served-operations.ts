import type { Response } from "../transport/http.js";
import { NotVerifiable } from "../model/outcome.js";
import { createdBy, type Created, propertiesOf, recordOf, requiredOf } from "./answers.js";
import type { Operation } from "./served-document.js";

/**
 * One operation of the server's own OpenAPI document (GET /api/v1/spec, read once a run:
 * core/served/read.ts), as the checks of E14 rules use it: the spec states rules about endpoints
 * whose request and response shapes it does not show, so a check learns from the document how
 * their bodies are spelled and how their answers carry what they made. The document is
 * dereferenced (ref-parser): no $ref is left to follow here.
 */
export class ServedOperation {
  constructor(readonly op: Operation) {}

  get method(): string {
    return this.op.method;
  }
  get path(): string {
    return this.op.path;
  }
  get label(): string {
    return `${this.op.method} ${this.op.path}`;
  }

  /** The object an answer of this operation carries (under its documented wrapper, if any). */
  record(res: Response): any {
    return recordOf(this.op, res);
  }

  /** What a create made: its id (link, record, Location), the object, the Location header. */
  created(res: Response): Created {
    return createdBy(this.op, res);
  }

  /** The documented query parameter named by one of the alternatives `a|b`, or undefined. */
  queryParam(names: string): { name: string; schema: any } | undefined {
    const alts = names.toLowerCase().split("|");
    const p = this.op.parameters.find((x) => x.in === "query" && alts.includes(String(x.name).toLowerCase()));
    return p ? { name: p.name, schema: p.schema } : undefined;
  }

  /** The query parameter, or NotVerifiable: the server does not document what the rule is about. */
  requireQueryParam(names: string, what: string): string {
    const p = this.queryParam(names);
    if (!p) throw new NotVerifiable(`${this.label} documents no query parameter ${names.split("|").join(" or ")} (${what})`);
    return p.name;
  }

  /** The JSON request body schema, or undefined. */
  bodySchema(): any {
    const media = this.op.requestBody?.media ?? {};
    const type = Object.keys(media).find((ct) => /json/i.test(ct));
    return type === undefined ? undefined : media[type];
  }

  /**
   * A request body spelled as the document spells it: each hint key lists alternative property
   * names (`fileName|path`), matched case-insensitively against the documented properties; a hint
   * whose value is an array of objects is fitted to the array's item schema. Required properties
   * no hint names get a value their schema takes (`documentedValue`). An optional hint (`key?`) whose value
   * the documented property does not take is the check's guess, not what the rule is about: left
   * out, or a value of the schema where the property is required. NotVerifiable when a hint
   * (not optional) matches nothing.
   */
  body(hints: Record<string, unknown>): Record<string, unknown> {
    return this.fit(this.bodySchema(), hints, "the body");
  }

  private fit(schema: any, hints: Record<string, unknown>, where: string): Record<string, unknown> {
    const props = propertiesOf(schema);
    const out: Record<string, unknown> = {};
    const named = (key: string, among: Record<string, any>) =>
      Object.keys(among).find((p) => key.replace(/\?$/, "").toLowerCase().split("|").includes(p.toLowerCase()));
    // Hints the body documents only inside a list of objects (`renames: [{from, to}]` for a rename
    // of `from` to `to`: the spec names the operation, not its body) go there, as a one-item list.
    const unplaced = Object.keys(hints).filter((k) => !k.endsWith("?") && !named(k, props));
    const list = unplaced.length ? Object.keys(props).find((p) => unplaced.every((k) => named(k, propertiesOf(props[p]?.items)))) : undefined;
    if (list) out[list] = [this.fit(props[list].items, Object.fromEntries(unplaced.map((k) => [k, hints[k]])), `${where}.${list}[]`)];
    for (const [key, value] of Object.entries(hints)) {
      if (list && unplaced.includes(key)) continue;
      const name = named(key, props);
      if (!name) {
        if (key.endsWith("?")) continue;
        throw new NotVerifiable(`${this.label}: ${where} documents no property ${key.split("|").join(" or ")}`);
      }
      if (key.endsWith("?") && !takes(props[name], value)) {
        if (requiredOf(schema).includes(name)) out[name] = documentedValue(props[name]);
        continue;
      }
      const items = props[name]?.items;
      const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
      out[name] =
        Array.isArray(value) && value.every(isRecord) && Object.keys(propertiesOf(items)).length
          ? value.map((v) => this.fit(items, v, `${where}.${name}[]`))
          : plainlySpelled(value);
    }
    for (const req of requiredOf(schema)) if (!(req in out)) out[req] = documentedValue(props[req]);
    return out;
  }

  /** The documented body property named by one of the alternatives `a|b` (its spelling there), or undefined. */
  bodyProperty(names: string): string | undefined {
    const alts = names.toLowerCase().split("|");
    return Object.keys(propertiesOf(this.bodySchema())).find((p) => alts.includes(p.toLowerCase()));
  }

  /** The documented enum of a query parameter or of a body property named by alternatives, or undefined. */
  enumOf(names: string): unknown[] | undefined {
    const q = this.queryParam(names);
    if (q?.schema?.enum) return q.schema.enum;
    const name = this.bodyProperty(names);
    return name ? propertiesOf(this.bodySchema())[name]?.enum : undefined;
  }
}

/**
 * How a body's values are drawn from their documented schemas: the generators' (generators/), which
 * sit above core; suites/lib/served-draws.ts registers them, and every check that spells a body
 * through a served operation reaches it through suites/lib/e14.ts, which imports it.
 */
export interface SchemaDraws {
  /** Whether the schema takes a value; throws on a schema it cannot compile. */
  conforms(schema: any): (value: unknown) => boolean;
  /** A value the schema takes (seeded: the same on every run), or undefined when none can be drawn from it. */
  draw(schema: any): unknown;
}

let draws: SchemaDraws | undefined;

/** Registers the draws the served operations' bodies use (suites/lib/served-draws.ts). */
export function drawFromSchemasWith(d: SchemaDraws): void {
  draws = d;
}

function schemaDraws(): SchemaDraws {
  if (!draws) throw new Error("no schema draws registered: suites/lib/served-draws.ts registers the generators' (drawFromSchemasWith)");
  return draws;
}

/**
 * A value a documented property takes: a plain one of its type where the schema takes it, else one
 * drawn from the schema (a pattern, a format, a minimum, an object's required fields, a list's
 * minItems: a server that types `schedule` as an object or needs one recipient refuses a plain
 * guess for another field than the rule's). A schema nothing can be drawn from keeps the plain value.
 */
function documentedValue(s: any): unknown {
  const plain = plainValue(s);
  if (!s || typeof s !== "object" || takes(s, plain)) return plain;
  const drawn = schemaDraws().draw(s);
  return drawn === undefined ? plain : drawn;
}

/** Whether a documented property's schema takes the value (a schema ajv cannot compile takes anything: it says nothing). */
function takes(s: any, value: unknown): boolean {
  if (!s || typeof s !== "object") return true;
  const { conforms } = schemaDraws();
  try {
    return conforms(s)(value);
  } catch {
    return true;
  }
}

function plainValue(s: any): unknown {
  if (Array.isArray(s?.enum)) return s.enum[0];
  const t = Array.isArray(s?.type) ? s.type[0] : s?.type;
  return t === "integer" || t === "number" ? 1 : t === "boolean" ? true : t === "array" ? [] : t === "object" ? {} : "cf-value";
}

/** The value of the first of the alternative fields `a|b` an answer carries. */
export function field(obj: any, names: string): any {
  if (!obj || typeof obj !== "object") return undefined;
  const key = Object.keys(obj).find((k) => names.toLowerCase().split("|").includes(k.toLowerCase()));
  return key === undefined ? undefined : obj[key];
}

/** The records of a list answer: `items` (the cursor style), else the legacy `data`, else the array itself. */
export function listed(body: any): any[] | undefined {
  if (Array.isArray(body)) return body;
  if (Array.isArray(body?.items)) return body.items;
  if (Array.isArray(body?.data)) return body.data;
  return undefined;
}

/**
 * A hint's value where the document does not describe its inside (an array of objects with no item
 * properties, an object with none): each alternative key `a|b` (optional `key?`) is sent as its first
 * spelling, never as the literal alternatives.
 */
function plainlySpelled(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainlySpelled);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/\?$/, "").split("|")[0], plainlySpelled(v)]));
}
