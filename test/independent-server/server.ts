// Entry module: independent implementation of the platform management API.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { authenticate, newAuthConfig, type AuthConfig } from "./auth.js";
import { errorBody, HttpError, parseJson, readBody, type ErrorStyle, type Reply } from "./http-util.js";
import { Router } from "./router.js";
import { seedState } from "./seed.js";
import type { State } from "./store.js";
import { deploymentRoutes } from "./routes-deployments.js";
import { environmentRoutes } from "./routes-environments.js";
import { buildRoutes } from "./routes-build.js";
import { workbookRoutes } from "./routes-workbooks.js";
import { workspaceRoutes } from "./routes-workspace.js";
import { miscRoutes } from "./routes-misc.js";

export interface RunningServer {
  url: string;
  token: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, method: string, r: Reply): void {
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  let payload: string | undefined;
  if (r.raw !== undefined) payload = r.raw;
  else if (r.body !== undefined && r.status !== 204) {
    payload = JSON.stringify(r.body);
    headers["content-type"] = "application/json; charset=utf-8";
  }
  if (payload !== undefined) headers["content-length"] = String(Buffer.byteLength(payload));
  res.writeHead(r.status, headers);
  res.end(method === "HEAD" ? undefined : payload);
}

async function handle(
  router: Router,
  st: State,
  auth: AuthConfig,
  locks: Map<string, Promise<void>>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let style: ErrorStyle = "control";
  const method = (req.method ?? "GET").toUpperCase();
  try {
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://localhost");
    } catch {
      throw new HttpError(400, "malformed request target");
    }
    const text = await readBody(req);
    const m = router.match(method === "HEAD" ? "GET" : method, url.pathname);
    if (!m) throw new HttpError(404, `no route for ${method} ${url.pathname}`);
    if ("allowed" in m) {
      const err = new HttpError(405, `method ${method} not allowed on ${url.pathname}`);
      send(res, method, { status: 405, body: errorBody(style, err), headers: { allow: [...new Set(m.allowed)].join(", ") } });
      return;
    }
    style = m.route.style;
    const principal = authenticate(auth, req.headers.authorization, m.route.meta === true);
    const body = parseJson(text);
    const reply = await m.route.handler({ st, auth, req, params: m.params, query: url.searchParams, principal, body, locks });
    send(res, method, reply);
  } catch (e) {
    const err = e instanceof HttpError ? e : new HttpError(500, "internal error");
    if (!(e instanceof HttpError)) console.error(e);
    const headers: Record<string, string> = {};
    if (err.status === 401) headers["www-authenticate"] = 'Bearer realm="platform"';
    if (!res.headersSent) send(res, method, { status: err.status, body: errorBody(style, err), headers });
    else res.destroy();
  }
}

export async function startIndependentServer(opts?: { host?: string; port?: number }): Promise<RunningServer> {
  const auth = newAuthConfig();
  const st = seedState();
  const locks = new Map<string, Promise<void>>();
  const router = new Router();
  router.add(miscRoutes);
  router.add(deploymentRoutes);
  router.add(environmentRoutes);
  router.add(buildRoutes);
  router.add(workbookRoutes);
  router.add(workspaceRoutes);
  const server = createServer((req, res) => {
    handle(router, st, auth, locks, req, res).catch(() => res.destroy());
  });
  server.on("clientError", (_err, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n");
  });
  const host = opts?.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts?.port ?? 0, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  return {
    url: `http://${host}:${addr.port}`,
    token: auth.apiKey,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
