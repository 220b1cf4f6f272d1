import type { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import { ajv2020 } from "../api/ajv.js";

/**
 * Each schema object of a served document, compiled by whichever check met it first: the checks of
 * a run share the one model the document was read into, and each compiled its schemas again (half
 * a second of a run). Weak: a model no longer held takes its compiled schemas with it.
 */
const compiledSchemas = new WeakMap<object, ValidateFunction | Error>();

/** Keywords whose value is one subschema, a map of them, or a list of them (JSON Schema 2020-12, and `items` as a list of older drafts). */
const ONE_SCHEMA = [
  "items",
  "additionalItems",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
];
const SCHEMA_MAP = ["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"];
const SCHEMA_LIST = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/**
 * Whether a subschema is compiled as a function of its own, called where it is met: an object's
 * schema (its properties) or a choice between schemas. A dereferenced document holds each of its
 * components as one object met wherever it was referred to; compiled inline, a list's answer
 * compiled its items' schemas again, the Workbook and its dashboards in each (77 schemas of the
 * reference's document were 1.5 MB of code). Compiled once each, they are called where met; a
 * component that refers to itself (a tree) compiles too, where inline it never ended.
 */
const ownFunction = (s: object) => "properties" in s || "allOf" in s || "anyOf" in s || "oneOf" in s;

/**
 * Schemas of one document, compiled once each (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it).
 * A schema ajv cannot compile is reported as such, never as the server's failure.
 */
export class DocumentSchemas {
  private ajv?: Ajv2020;
  /** The id each subschema with a function of its own was added under, by identity. */
  private readonly ids = new Map<object, string>();

  /** The schema's errors for the value (empty: valid); undefined when the schema cannot be compiled. */
  errors(schema: any, value: unknown): string[] | undefined {
    if (schema === undefined || schema === true) return [];
    if (typeof schema !== "object" || schema === null) return undefined;
    let fn = compiledSchemas.get(schema);
    if (!fn) {
      // Unoptimised code: each of a document's schemas is compiled once and run a few times, and
      // the optimiser's passes took a third of the document check's time.
      this.ajv ??= ajv2020({ strict: false, allErrors: true, validateSchema: false, addUsedSchema: false, inlineRefs: false, code: { optimize: false } });
      try {
        fn = this.ajv.compile(this.referring(schema, new Set()));
      } catch (err) {
        fn = err as Error;
      }
      compiledSchemas.set(schema, fn);
    }
    if (fn instanceof Error) return undefined;
    if (fn(value)) return [];
    return [
      ...new Set(
        (fn.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message}${e.keyword === "enum" ? ` ${JSON.stringify(e.params.allowedValues)}` : ""}`),
      ),
    ].slice(0, 8);
  }

  /** A copy of the schema whose subschemas with a function of their own are `$ref`s to them, each added once. */
  private referring(schema: any, open: Set<object>): any {
    if (!schema || typeof schema !== "object" || Array.isArray(schema) || open.has(schema)) return schema;
    open.add(schema);
    const out: any = { ...schema };
    for (const k of ONE_SCHEMA) if (isSchema(schema[k])) out[k] = this.sub(schema[k], open);
    for (const k of SCHEMA_LIST) if (Array.isArray(schema[k])) out[k] = schema[k].map((s: unknown) => this.sub(s, open));
    for (const k of SCHEMA_MAP) if (isSchema(schema[k])) out[k] = Object.fromEntries(Object.entries(schema[k]).map(([name, s]) => [name, this.sub(s, open)]));
    open.delete(schema);
    return out;
  }

  private sub(s: any, open: Set<object>): any {
    if (!isSchema(s) || !ownFunction(s) || "$id" in s) return this.referring(s, open);
    let id = this.ids.get(s);
    if (!id) {
      id = `urn:served-schema:${this.ids.size}`;
      // The id first: a schema met again inside itself refers to the one being added.
      this.ids.set(s, id);
      // Its own $schema would name a dialect ajv was not given: inline, it was never read.
      const { $schema, ...own } = this.referring(s, new Set());
      this.ajv?.addSchema({ ...own, $id: id });
    }
    return { $ref: id };
  }
}

const isSchema = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
