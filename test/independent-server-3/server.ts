// Entry point: an independent server built from the written specification only.
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { authenticate } from "./auth.js";
import type { AppRouter, Call } from "./ctx.js";
import { HttpError, Router, errorBody, parseJsonBody, readRawBody, sendReply } from "./http.js";
import { buildOpenApi } from "./openapi.js";
import { registerAudit } from "./routes-audit.js";
import { registerBranches } from "./routes-branches.js";
import { registerDataModel } from "./routes-datamodel.js";
import { registerDbt } from "./routes-dbt.js";
import { registerDeployments } from "./routes-deployments.js";
import { registerEnv } from "./routes-env.js";
import { registerEnvVars } from "./routes-envvars.js";
import { registerOps } from "./routes-ops.js";
import { registerUsers } from "./routes-users.js";
import { registerWorkbooks } from "./routes-workbooks.js";
import { registerWorkspace } from "./routes-workspace.js";
import { seed } from "./seed.js";
import type { Store } from "./store.js";

export interface StartedServer {
  url: string;
  token: string;
  tokens: Record<string, string>;
  close(): Promise<void>;
}

export function buildRouter(): AppRouter {
  const r: AppRouter = new Router<Call>();
  registerDeployments(r);
  registerOps(r);
  registerEnv(r);
  registerBranches(r);
  registerWorkbooks(r);
  registerWorkspace(r);
  registerEnvVars(r);
  registerAudit(r);
  registerDataModel(r);
  registerDbt(r);
  registerUsers(r);
  r.add("GET", "/api/v1/spec", () => ({ status: 200, body: buildOpenApi() }));
  return r;
}

async function handle(store: Store, router: AppRouter, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://localhost");
  const method = (req.method ?? "GET").toUpperCase();
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") : url.pathname;
  const m = router.match(method, path);
  if (!m) throw new HttpError(404, `no route for ${method} ${path}`, "route_not_found");
  if ("allowed" in m) throw new HttpError(405, `method ${method} is not allowed on ${path}`, "method_not_allowed", { allowed: m.allowed });
  const p = authenticate(store, req);
  const raw = await readRawBody(req);
  const body = parseJsonBody(raw);
  const reply = await m.handler({ req, res, store, p, params: m.params, q: url.searchParams, body, path });
  if (reply.stream) {
    res.writeHead(reply.status, reply.headers ?? {});
    await reply.stream(res);
    return;
  }
  sendReply(res, reply);
}

export async function startIndependentServer(opts?: { host?: string; port?: number }): Promise<StartedServer> {
  const { store, tokens, adminToken } = seed();
  const router = buildRouter();
  const server = createServer((req, res) => {
    handle(store, router, req, res).catch((e: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (e instanceof HttpError) {
        const headers: Record<string, string> = {};
        if (e.status === 401) headers["WWW-Authenticate"] = 'Bearer realm="api"';
        if (e.status === 405 && Array.isArray(e.extra["allowed"])) headers["Allow"] = (e.extra["allowed"] as string[]).join(", ");
        sendReply(res, { status: e.status, body: errorBody(e), headers });
        if (e.status === 413) req.resume();
        return;
      }
      console.error("[blind3] unexpected error", e);
      sendReply(res, { status: 500, body: { error: "internal error", code: "internal" } });
    });
  });
  server.keepAliveTimeout = 1000;
  const host = opts?.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts?.port ?? 0, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  return {
    url: `http://${host}:${addr.port}`,
    token: adminToken,
    tokens,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
