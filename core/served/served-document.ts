import { pathTo } from "../transport/client.js";
import { operationKey } from "../api/match.js";
import { pointerToken } from "../model/json-pointer.js";

/** E14; Versioning 1: where every server serves the OpenAPI 3.1 document of what it handles. */
export const SPEC_PATH = pathTo("getSpec");

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch"] as const;
export type Method = Uppercase<(typeof HTTP_METHODS)[number]>;

/** One parameter as the document declares it (dereferenced). */
export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  schema: any;
}

/** One operation of a served (or bundled) document, dereferenced. */
export interface Operation {
  method: Method;
  /** The request path with its server's prefix (`/api/v1`, `/build/api/v1`), placeholders as named. */
  path: string;
  /** `METHOD /path/{}/...`: how two documents' operations are told the same whatever they name their placeholders. */
  key: string;
  /** JSON pointer of the operation in its document: `#/paths/~1api~1v1~1spec/get`. */
  pointer: string;
  operationId?: string;
  parameters: Parameter[];
  requestBody?: { required: boolean; media: Record<string, any> };
  /** By status key as documented (`200`, `4XX`, `default`): media type to schema (undefined: no schema), links, headers by lowercased name. */
  responses: Record<string, { media: Record<string, any>; links: Record<string, any>; headers: Record<string, any> }>;
}

/** The path part of a server URL (`https://{tenant}.example.com/api/v1` -> `/api/v1`). */
function serverPrefix(doc: any): string {
  const url = Array.isArray(doc.servers) ? doc.servers[0]?.url : undefined;
  if (typeof url !== "string") return "";
  const path = url
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "")
    .replace(/^\{[^}]*\}/, "")
    .replace(/\/+$/, "");
  return path.startsWith("/") ? path : "";
}

/** A document path as requested: absolute paths of this API as they are, others under the first server's path. */
function requestPath(doc: any, path: string): string {
  if (/^\/(build\/)?api\/v\d+\//.test(path)) return path;
  return serverPrefix(doc) + path;
}

/**
 * The operations of each document read, by the document: a document is not changed once read
 * (the served model's, the spec's own), and the documented layer asks for the spec's operations
 * once per operation it exercises (a fifth of a run's garbage, rebuilt each time).
 */
const readOperations = new WeakMap<object, readonly Operation[]>();

/** Every operation of a dereferenced document, in its order. */
export function operationsOf(doc: any): Operation[] {
  if (!doc || typeof doc !== "object") return operationsIn(doc);
  let ops = readOperations.get(doc);
  if (!ops) readOperations.set(doc, (ops = operationsIn(doc)));
  // A copy of the list: its operations are shared, the list is the caller's.
  return [...ops];
}

function operationsIn(doc: any): Operation[] {
  const out: Operation[] = [];
  for (const [docPath, item] of Object.entries<any>(doc?.paths ?? {})) {
    if (!item || typeof item !== "object") continue;
    for (const m of HTTP_METHODS) {
      const op = item[m];
      if (!op || typeof op !== "object") continue;
      const params = new Map<string, Parameter>();
      for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])])
        if (p && typeof p.name === "string")
          params.set(`${p.in}:${p.name}`, { name: p.name, in: p.in, required: Boolean(p.required || p.in === "path"), schema: p.schema ?? {} });
      const responses: Operation["responses"] = {};
      for (const [status, r] of Object.entries<any>(op.responses ?? {}))
        responses[status] = {
          media: Object.fromEntries(Object.entries<any>(r?.content ?? {}).map(([t, c]) => [t, c?.schema])),
          links: r?.links ?? {},
          headers: Object.fromEntries(Object.entries<any>(r?.headers ?? {}).map(([h, v]) => [h.toLowerCase(), v])),
        };
      const body = op.requestBody;
      const path = requestPath(doc, docPath);
      out.push({
        method: m.toUpperCase() as Method,
        path,
        key: operationKey(m, path),
        pointer: `#/paths/${pointerToken(docPath)}/${m}`,
        operationId: op.operationId,
        parameters: [...params.values()],
        requestBody: body
          ? { required: Boolean(body.required), media: Object.fromEntries(Object.entries<any>(body.content ?? {}).map(([t, c]) => [t, c?.schema])) }
          : undefined,
        responses,
      });
    }
  }
  return out;
}

/** The response of an operation a status falls under: exact, then `4XX`, then `default`. */
export function documentedResponse(op: Operation, status: number): Operation["responses"][string] | undefined {
  return op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses[`${String(status)[0]}xx`] ?? op.responses.default;
}

/** The media type of a Content-Type header, lowercased, without parameters. */
export const mediaType = (header: string | undefined) => (header ?? "").split(";")[0].trim().toLowerCase();

/** Whether a served media type is one the document names (`application/*`, `*\/*` included). */
export function mediaMatches(documented: string[], served: string): boolean {
  return documented.some((d) => {
    const [type, sub] = d.toLowerCase().split("/");
    const [sType, sSub] = served.split("/");
    return (type === "*" || type === sType) && (sub === "*" || sub === sSub);
  });
}
