import type { Api } from "./api.js";
import { NotVerifiable } from "./outcome.js";
import { HTTP_METHODS, normalisePath as normalise, SPEC_PATH } from "./served-document.js";

/**
 * The server's own OpenAPI document (GET /api/v1/spec), read by the checks of E14 rules: the spec
 * states rules about endpoints whose request and response shapes it does not show, so a check
 * learns from the document which operations the server serves and how their bodies are spelled.
 * An operation the document does not describe is not verifiable on that server, never a failure.
 */
const METHODS: readonly string[] = HTTP_METHODS;

export class ServedDocument {
  private constructor(private readonly doc: any) {}

  /** The document, or NotVerifiable when the server serves none the check could read. */
  static async load(api: Api): Promise<ServedDocument> {
    const res = await api.get(SPEC_PATH);
    if (res.status !== 200 || !res.isJson || !res.body || typeof res.body !== "object" || typeof res.body.paths !== "object")
      throw new NotVerifiable(`GET /api/v1/spec answered ${res.status} without an OpenAPI document: the E14 operations' shapes cannot be learnt`);
    return new ServedDocument(res.body);
  }

  /**
   * The operation at `method path`, or undefined. The path may name concrete values
   * (`/api/v1/deployments/7/logs`) or placeholders of any name; a documented literal segment beats
   * a documented placeholder (`/users/bulk` before `/users/{userId}`).
   */
  find(method: string, path: string): ServedOperation | undefined {
    const want = normalise(path).split("/");
    let best: { score: number; op: ServedOperation } | undefined;
    for (const [p, item] of Object.entries<any>(this.doc.paths ?? {})) {
      const op = item && typeof item === "object" && METHODS.includes(method.toLowerCase()) ? item[method.toLowerCase()] : undefined;
      const have = normalise(p).split("/");
      if (!op || have.length !== want.length) continue;
      let score = 0;
      if (!have.every((seg, i) => seg === want[i] ? ++score : seg === "{}" || want[i] === "{}")) continue;
      if (!best || score > best.score) best = { score, op: new ServedOperation(this, method.toUpperCase(), p, op, item.parameters ?? []) };
    }
    return best?.op;
  }

  /** The operation, or NotVerifiable naming what the check needed it for. */
  require(method: string, path: string, what: string): ServedOperation {
    const op = this.find(method, path);
    if (!op) throw new NotVerifiable(`the server's document (GET /api/v1/spec) does not describe ${method.toUpperCase()} ${path}, which ${what}`);
    return op;
  }

  /** A node with its local `$ref`s followed (one level at a time, cycles cut), allOf merged. */
  resolve(node: any, depth = 0): any {
    if (!node || typeof node !== "object" || depth > 20) return node;
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/")) {
      const target = node.$ref.slice(2).split("/").reduce((o: any, k: string) => o?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], this.doc);
      return this.resolve(target, depth + 1);
    }
    if (Array.isArray(node.allOf)) {
      const parts = node.allOf.map((s: any) => this.resolve(s, depth + 1));
      const { allOf: _a, ...rest } = node;
      return { ...rest, properties: Object.assign({}, ...parts.map((p: any) => p?.properties ?? {}), rest.properties), required: [...new Set([...parts.flatMap((p: any) => p?.required ?? []), ...(rest.required ?? [])])] };
    }
    return node;
  }
}

export class ServedOperation {
  constructor(private readonly owner: ServedDocument, readonly method: string, readonly path: string, private readonly op: any, private readonly shared: any[]) {}

  get label(): string {
    return `${this.method} ${this.path}`;
  }

  private parameters(): any[] {
    return [...this.shared, ...(this.op.parameters ?? [])].map((p) => this.owner.resolve(p));
  }

  /** The documented query parameter named by one of the alternatives `a|b`, or undefined. */
  queryParam(names: string): { name: string; schema: any } | undefined {
    const alts = names.toLowerCase().split("|");
    const p = this.parameters().find((x) => x?.in === "query" && alts.includes(String(x.name).toLowerCase()));
    return p ? { name: p.name, schema: this.owner.resolve(p.schema) } : undefined;
  }

  /** The query parameter, or NotVerifiable: the server does not document what the rule is about. */
  requireQueryParam(names: string, what: string): string {
    const p = this.queryParam(names);
    if (!p) throw new NotVerifiable(`${this.label} documents no query parameter ${names.split("|").join(" or ")} (${what})`);
    return p.name;
  }

  /** The JSON request body schema (resolved), or undefined. */
  bodySchema(): any {
    const body = this.owner.resolve(this.op.requestBody);
    const content = body?.content ?? {};
    const json = Object.entries<any>(content).find(([ct]) => /json/i.test(ct))?.[1];
    return json ? this.owner.resolve(json.schema) : undefined;
  }

  /**
   * A request body spelled as the document spells it: each hint key lists alternative property
   * names (`fileName|path`), matched case-insensitively against the documented properties; a hint
   * whose value is an array of objects is fitted to the array's item schema. Required properties
   * no hint names get a plain value of their type. NotVerifiable when a hint matches nothing.
   */
  body(hints: Record<string, unknown>): Record<string, unknown> {
    return this.fit(this.bodySchema(), hints, "the body");
  }

  private fit(raw: any, hints: Record<string, unknown>, where: string): Record<string, unknown> {
    const schema = this.owner.resolve(raw) ?? {};
    const props: Record<string, any> = schema.properties ?? {};
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(hints)) {
      const alts = key.toLowerCase().split("|");
      const name = Object.keys(props).find((p) => alts.includes(p.toLowerCase()));
      if (!name) {
        if (key.endsWith("?")) continue;
        throw new NotVerifiable(`${this.label}: ${where} documents no property ${key.split("|").join(" or ")}`);
      }
      const items = this.owner.resolve(this.owner.resolve(props[name])?.items);
      out[name] = Array.isArray(value) && value.every((v) => v && typeof v === "object" && !Array.isArray(v)) && items?.properties ? value.map((v) => this.fit(items, v as Record<string, unknown>, `${where}.${name}[]`)) : value;
    }
    for (const req of schema.required ?? []) if (!(req in out)) out[req] = plainValue(this.owner.resolve(props[req]));
    return out;
  }

  /** The documented enum of a query parameter or of a body property named by alternatives, or undefined. */
  enumOf(names: string): unknown[] | undefined {
    const q = this.queryParam(names);
    if (q?.schema?.enum) return q.schema.enum;
    const props = this.bodySchema()?.properties ?? {};
    const alts = names.toLowerCase().split("|");
    const name = Object.keys(props).find((p) => alts.includes(p.toLowerCase()));
    return name ? this.owner.resolve(props[name])?.enum : undefined;
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
