import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { startReference } from "../reference/server.js";

/**
 * The bundled reference behind a proxy whose served document lists many operations beyond the
 * spec's: unknown paths with every method, PATCH on the spec's paths, DELETE on its collections.
 * A read-only run must send none of their writes, whatever the document lists. The proxy answers
 * them as the reference does (a 404 for the unknown paths), so nothing about them can be learnt
 * but what the document says.
 */
const SPEC = "/api/v1/spec";
const D = "/api/v1/deployments/{deploymentId}";
const depParam = { name: "deploymentId", in: "path", required: true, schema: { type: "string" } };
const idParam = { name: "thingId", in: "path", required: true, schema: { type: "string" } };
const answer = { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } };
const body = { required: true, content: { "application/json": { schema: { type: "object", properties: { name: { type: "string" } } } } } };

/** The extra operations: path -> method -> operation; at least fifty of them. */
export function extraOperations(): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  const op = (params: unknown[], withBody: boolean) => ({ parameters: params, ...(withBody ? { requestBody: body } : {}), responses: answer });
  for (const name of ["gadgets", "widgets", "sprockets", "levers", "dials", "knobs", "gears", "valves"]) {
    paths[`${D}/${name}`] = { get: op([depParam], false), post: op([depParam], true), delete: op([depParam], false), patch: op([depParam], true) };
    paths[`${D}/${name}/{thingId}`] = { get: op([depParam, idParam], false), put: op([depParam, idParam], true), delete: op([depParam, idParam], false) };
  }
  paths["/api/v1/deployments"] = { delete: op([], false), patch: op([], true) };
  paths[`${D}/workbooks`] = { delete: op([depParam], false), patch: op([depParam], true) };
  paths[`${D}/env-vars`] = { delete: op([depParam], false), patch: op([depParam], true) };
  paths["/api/v1/users"] = { delete: op([], false), patch: op([], true) };
  return paths;
}

export async function startManyOperations() {
  const ref = await startReference();
  const token = (ref.config() as { token: string }).token;
  const upstream = new URL(ref.url);
  const extra = extraOperations();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const p = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
        (r) => {
          const served = req.method === "GET" && new URL(req.url ?? "/", ref.url).pathname === SPEC && r.statusCode === 200;
          if (!served) {
            res.writeHead(r.statusCode ?? 502, r.headers);
            r.pipe(res);
            return;
          }
          const got: Buffer[] = [];
          r.on("data", (c: Buffer) => got.push(c));
          r.on("end", () => {
            const doc = JSON.parse(Buffer.concat(got).toString("utf8"));
            for (const [path, ops] of Object.entries(extra)) doc.paths[path] = { ...doc.paths[path], ...ops };
            res.writeHead(200, { "content-type": "application/json" });
            res.end(JSON.stringify(doc));
          });
        },
      );
      p.on("error", () => {
        res.statusCode = 502;
        res.end();
      });
      p.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    extraOperations: Object.values(extra).reduce((n, ops) => n + Object.keys(ops).length, 0),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await ref.close();
    },
  };
}
