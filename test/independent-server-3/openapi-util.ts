// Small builders for the OpenAPI 3.1 document.
export type S = Record<string, unknown>;

export const ref = (n: string): S => ({ $ref: `#/components/schemas/${n}` });
export const str = (extra: S = {}): S => ({ type: "string", ...extra });
export const int = (extra: S = {}): S => ({ type: "integer", ...extra });
export const num = (extra: S = {}): S => ({ type: "number", ...extra });
export const bool = (): S => ({ type: "boolean" });
export const arr = (items: S, extra: S = {}): S => ({ type: "array", items, ...extra });
export const anyObj = (): S => ({ type: "object", additionalProperties: true });
export const dt = (): S => ({ type: "string", format: "date-time" });
export const en = (values: readonly string[]): S => ({ type: "string", enum: [...values] });
export const nullable = (s: S): S => ({ anyOf: [s, { type: "null" }] });

export function obj(required: string[], properties: Record<string, S>, extra: S = {}): S {
  const o: S = { type: "object", properties, ...extra };
  if (required.length) o["required"] = required;
  return o;
}

export const wrapped = (n: string): S => obj(["data"], { data: ref(n) });

export const json = (schema: S): S => ({ content: { "application/json": { schema } } });

export function body(schema: S, required = true): S {
  return { required, ...json(schema) };
}

export function res(description: string, schema: S): S {
  return { description, ...json(schema) };
}

const errRef = (c: number): S => ({ $ref: `#/components/responses/Error${c}` });

export interface OpSpec {
  id: string;
  summary: string;
  tags: string[];
  params?: S[];
  body?: S;
  ok: Record<string, S>;
  errors: number[];
  deprecated?: boolean;
}

export function op(o: OpSpec): S {
  const responses: S = { ...o.ok };
  for (const c of [...new Set([401, 403, ...(o.body ? [400, 413] : []), ...o.errors])].sort()) responses[String(c)] = errRef(c);
  const out: S = { operationId: o.id, summary: o.summary, tags: o.tags, responses };
  if (o.params?.length) out["parameters"] = o.params;
  if (o.body) out["requestBody"] = o.body;
  if (o.deprecated) out["deprecated"] = true;
  return out;
}

export function pathP(name: string, schema: S = str(), description?: string): S {
  const p: S = { name, in: "path", required: true, schema };
  if (description) p["description"] = description;
  return p;
}

export function queryP(name: string, schema: S, description?: string, required = false): S {
  const p: S = { name, in: "query", required, schema };
  if (description) p["description"] = description;
  return p;
}

export const depP = pathP("deploymentId", str({ pattern: "^[0-9]+$" }), "Deployment id (digits).");
export const firstP = queryP("first", int({ minimum: 1, maximum: 50 }), "Page size (1..50; values above 50 are refused with 400). Default 5.");
export const afterP = queryP("after", str(), "Opaque cursor (an endCursor of this list).");
export const cursorParams = [firstP, afterP];

export const locationHeader: S = { Location: { description: "URL of the created resource.", schema: str() } };

/** A 201 answer with a Location header and a link to the operation that reads the created object. */
export function created201(schemaName: string, linkOp: string, linkParams: Record<string, string>): Record<string, S> {
  return {
    "201": {
      description: "Created. Body wraps the new object in data; Location points at it.",
      headers: locationHeader,
      ...json(wrapped(schemaName)),
      links: { [`get${schemaName}`]: { operationId: linkOp, parameters: linkParams, description: `Read the created ${schemaName}.` } },
    },
  };
}

export const ok200 = (description: string, schema: S): Record<string, S> => ({ "200": res(description, schema) });
export const okWrapped = (description: string, schemaName: string): Record<string, S> => ({ "200": res(description, wrapped(schemaName)) });

/** Standard cursor list answer: items, pageInfo, deprecated data and count. */
export function cursorList(item: S, extra: Record<string, S> = {}): S {
  return obj(["items", "pageInfo", "data", "count"], {
    items: arr(item),
    pageInfo: ref("PageInfo"),
    data: { ...arr(item), deprecated: true, description: "Deprecated copy of items." },
    count: int({ minimum: 0, deprecated: true, description: "Deprecated: total ignoring pagination." }),
    ...extra,
  });
}
