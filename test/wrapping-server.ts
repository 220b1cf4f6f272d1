import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startReference, type RunningReference } from "../reference/server.js";

/**
 * A server nobody on the team wrote the suite for: the bundled reference behind a proxy that
 * answers its E14 operations the way another honest implementation might, and documents it.
 * - every single-object 2xx JSON answer of an E14 operation is wrapped as `{"data": ...}` (lists,
 *   with their `items`, are left as they are: a list is no single object);
 * - a create (a POST whose document links or places an operation on what it made) answers 201
 *   with a `Location` header naming the new object;
 * - the served document says all of it: each such response schema wrapped under `data`, creates
 *   documented as 201 with their `Location` header, links reading the id at `/data/id`.
 * Every request for the document is counted, so a test can hold the suite to one read a run.
 */
export interface WrappingServer {
  url: string;
  ref: RunningReference;
  /** How many GET /api/v1/spec the server answered with the run's key (reads of the document; the auth probes send none). */
  documentReads: number;
  /** How many GET /api/v1/spec it received in all. */
  documentRequests: number;
  /** The settings a run against this server takes (the reference's config, at the proxy's URL). */
  config(): Record<string, any>;
  close(): Promise<void>;
}

const SPEC = "/api/v1/spec";
const METHODS = ["get", "put", "post", "delete", "patch"];

interface Rewrite {
  method: string;
  match: RegExp;
  /** Wrap the 2xx JSON object answer under `data`. */
  wrap: boolean;
  /** A create: answered 201 with a Location header; the item path, `{}` for the id. */
  itemPath?: string;
}

const template = (path: string) => new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\\{[^}]*\\\}|\{[^}]*\}/g, "[^/]+")}/?$`);
const isList = (schema: any) => Boolean(schema?.properties?.items?.type === "array" || schema?.properties?.pageInfo);

/** The document rewritten as the proxy answers, and the rewrites the proxy applies. */
function rewriteDocument(original: any, wrap: boolean): { doc: any; rewrites: Rewrite[] } {
  const doc = structuredClone(original);
  const rewrites: Rewrite[] = [];
  if (!wrap) return { doc, rewrites };
  const resolve = (s: any) =>
    typeof s?.$ref === "string"
      ? s.$ref
          .slice(2)
          .split("/")
          .reduce((o: any, k: string) => o?.[k], doc)
      : s;
  const paths = Object.keys(doc.paths);
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const m of METHODS) {
      const op = item[m];
      if (!op || op["x-spec-ref"] !== "E14" || path === SPEC) continue;
      const oks = Object.keys(op.responses ?? {}).filter((status) => /^2/.test(status));
      const schemas = oks.map((status) => op.responses[status].content?.["application/json"]?.schema);
      const single = schemas.some((schema) => schema !== undefined && !isList(resolve(schema)) && resolve(schema)?.type !== "array");
      if (single)
        for (const status of oks) {
          const ok = op.responses[status];
          const json = ok.content?.["application/json"];
          if (json?.schema === undefined) continue;
          json.schema = { type: "object", required: ["data"], properties: { data: json.schema }, additionalProperties: false };
          for (const link of Object.values<any>(ok.links ?? {}))
            for (const [k, v] of Object.entries<any>(link.parameters ?? {}))
              if (typeof v === "string") link.parameters[k] = v.replace("$response.body#/", "$response.body#/data/");
        }
      const itemOf =
        m === "post"
          ? paths.find((p) => p.startsWith(`${path.replace(/\/$/, "")}/{`) && /^\{[^}]+\}$/.test(p.slice(path.replace(/\/$/, "").length + 1)))
          : undefined;
      const ok = oks.length ? op.responses[oks[0]] : undefined;
      const isCreate = Boolean(itemOf && single && (Object.keys(ok?.links ?? {}).length || doc.paths[itemOf].get || doc.paths[itemOf].delete));
      if (isCreate) {
        delete op.responses[oks[0]];
        op.responses["201"] = {
          ...ok,
          description: "Created; Location names the new object",
          headers: { ...(ok.headers ?? {}), Location: { description: "the new object", required: true, schema: { type: "string", format: "uri-reference" } } },
        };
      }
      if (single || isCreate)
        rewrites.push({ method: m.toUpperCase(), match: template(path), wrap: single, itemPath: isCreate ? itemOf!.replace(/\{[^}]+\}$/, "{}") : undefined });
    }
  }
  return { doc, rewrites };
}

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });

/** Starts the reference and the proxy in front of it; `wrap: false` forwards as is (counting document reads all the same). */
export async function startWrapping(opts: { wrap?: boolean } = {}): Promise<WrappingServer> {
  const ref = await startReference();
  const token = (ref.config() as any).token as string;
  const original = await (await fetch(`${ref.url}${SPEC}`, { headers: { authorization: `Bearer ${token}` } })).json();
  const { doc, rewrites } = rewriteDocument(original, opts.wrap ?? true);
  const state = { documentReads: 0, documentRequests: 0 };
  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", ref.url);
      const method = (req.method ?? "GET").toUpperCase();
      const body = method === "GET" || method === "HEAD" ? undefined : await readBody(req);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k, v]) => typeof v === "string" && !["host", "connection", "content-length"].includes(k)),
      ) as Record<string, string>;
      const upstream = await fetch(url, { method, headers, body: body ? new Uint8Array(body) : undefined });
      const text = await upstream.text();
      const out: Record<string, string> = {};
      upstream.headers.forEach((v, k) => {
        if (!["content-length", "connection", "keep-alive", "transfer-encoding", "content-encoding"].includes(k)) out[k] = v;
      });
      let status = upstream.status;
      let payload = text;
      if (method === "GET" && url.pathname === SPEC) {
        state.documentRequests++;
        if (req.headers.authorization === `Bearer ${token}`) state.documentReads++;
        if (status === 200) payload = JSON.stringify(doc);
      } else if (status >= 200 && status < 300 && /json/.test(out["content-type"] ?? "")) {
        const rule = rewrites.find((r) => r.method === method && r.match.test(url.pathname));
        const parsed = rule ? JSON.parse(text) : undefined;
        if (rule && parsed && typeof parsed === "object" && !Array.isArray(parsed) && !Array.isArray(parsed.items)) {
          if (rule.itemPath && parsed.id !== undefined) {
            status = 201;
            out.location = `${url.pathname.replace(/\/$/, "")}/${encodeURIComponent(String(parsed.id))}`;
          }
          if (rule.wrap) payload = JSON.stringify({ data: parsed });
        }
      }
      res.writeHead(status, out);
      res.end(payload);
    } catch (err) {
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: `wrapping proxy: ${(err as Error).message}` }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    ref,
    get documentReads() {
      return state.documentReads;
    },
    get documentRequests() {
      return state.documentRequests;
    },
    config: () => ({ ...(ref.config() as Record<string, any>), baseUrl: url }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ref.close();
    },
  };
}
