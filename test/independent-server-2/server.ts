import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Ctx, HttpError, readBody, sendError, sendJson } from "./http.js";
import { type Store, seed } from "./store.js";
import * as D from "./deploy.js";
import * as W from "./workspace.js";
import { exportAudit } from "./audit.js";
import { OPENAPI } from "./openapi.js";

type Out = { status?: number; body?: unknown } | "sent";
type Handler = (s: Store, ctx: Ctx, p: string[]) => Out | Promise<Out>;
type Route = { method: string; re: RegExp; h: Handler; meta?: boolean; style: "cp" | "pf" };

const SEG = "([^/]+)";
const r = (method: string, path: string, h: Handler, style: "cp" | "pf" = "cp", meta = false): Route => ({
  method,
  re: new RegExp("^" + path.replace(/\{[a-zA-Z]+\}/g, SEG) + "/?$"),
  h,
  style,
  meta,
});
const ok = (body: unknown, status = 200): Out => ({ status, body });
const DP = "/api/v1/deployments/{d}";
const BDP = "/build/api/v1/deployments/{d}";

const ROUTES: Route[] = [
  r("GET", "/api/v1/spec", () => ok(OPENAPI)),
  r("GET", "/api/v1/app-config", () => ok(D.appConfig())),
  r("GET", "/api/v1/regions", (_s, c) => ok(D.regions(c))),
  r("GET", "/api/v1/deployments", (s, c) => ok(D.listDeployments(s, c))),
  r("PUT", DP, (s, c, p) => ok(D.updateDeployment(s, c, p[0]!))),
  r("GET", `${DP}/environments`, (s, c, p) => ok(D.listEnvironments(s, c, p[0]!))),
  r("POST", `${DP}/environments/{e}/tokens-for-meta-sync`, (s, c, p) => ok(D.metaToken(s, c, p[0]!, p[1]!))),
  r("GET", `${DP}/versions`, (s, c, p) => ok(D.listVersions(s, c, p[0]!))),
  r("GET", `${DP}/settings`, (s, _c, p) => ok(D.settings(s, p[0]!))),
  r("GET", `${DP}/env-vars`, (s, c, p) => ok(D.getEnvVars(s, c, p[0]!))),
  r("PUT", `${DP}/env-vars`, (s, c, p) => ok(D.putEnvVars(s, c, p[0]!))),
  r("GET", `${DP}/data-sources`, (s, c, p) => ok(D.metaListing(s, c, p[0]!, "data-sources")), "cp", true),
  r("GET", `${DP}/entities`, (s, c, p) => ok(D.metaListing(s, c, p[0]!, "entities")), "cp", true),
  r("GET", "/api/v1/audit-logs/export", (s, c) => {
    exportAudit(s, c, c.res);
    return "sent";
  }),
  r("GET", `${DP}/workbooks`, (s, c, p) => ok(W.listWorkbooks(s, c, p[0]!)), "pf"),
  r("PUT", `${DP}/workbooks/by-slug/{slug}`, async (s, c, p) => ok(await W.upsertBySlug(s, c, p[0]!, p[1]!)), "pf"),
  r("GET", `${DP}/workbooks/{w}`, (s, _c, p) => ok(W.getWorkbook(s, p[0]!, p[1]!)), "pf"),
  r("POST", `${DP}/workbooks/{w}/duplicate`, (s, c, p) => ok(W.cloneWorkbook(s, c, p[0]!, p[1]!)), "pf"),
  r("POST", `${DP}/workspace/bulk-move`, (s, c, p) => ok(W.bulkMove(s, c, p[0]!)), "pf"),
  r("POST", `${DP}/workspace/bulk-delete`, (s, c, p) => ok(W.bulkDelete(s, c, p[0]!)), "pf"),
  r("GET", `${DP}/folders`, (s, c, p) => ok(W.listFolders(s, c, p[0]!)), "pf"),
  r("POST", `${DP}/folders`, (s, c, p) => ok(W.createFolder(s, c, p[0]!), 201), "pf"),
  r(
    "DELETE",
    `${DP}/folders/{f}`,
    (s, _c, p) => {
      W.removeFolder(s, p[0]!, p[1]!);
      return ok(undefined, 204);
    },
    "pf",
  ),
  r("GET", `${BDP}/branches`, (s, c, p) => ok(D.listBranches(s, c, p[0]!))),
  r("POST", `${BDP}/branches`, (s, c, p) => ok(D.createBranch(s, c, p[0]!), 201)),
  r("DELETE", `${BDP}/branches`, (s, c, p) => {
    D.deleteBranch(s, c, p[0]!);
    return ok(undefined, 204);
  }),
  r("PUT", `${BDP}/branches/staging-environment`, (s, c, p) => ok(D.stagingToggle(s, c, p[0]!))),
];

function authenticate(s: Store, req: IncomingMessage): Ctx["auth"] {
  const h = req.headers["authorization"];
  const m = typeof h === "string" ? /^(Bearer|Api-Key)\s+(\S+)\s*$/i.exec(h) : null;
  if (!m) throw new HttpError(401, "missing or malformed credentials");
  const tok = m[2]!;
  if (tok === s.token) return { kind: "key" };
  const jwt = D.verifyJwt(s, tok);
  if (jwt && typeof jwt["deploymentId"] === "string") return { kind: "meta", deploymentId: jwt["deploymentId"] };
  throw new HttpError(401, "invalid or expired credentials");
}

async function handle(s: Store, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let style: "cp" | "pf" = "cp";
  try {
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname.replace(/\/{2,}/g, "/");
    const method = (req.method ?? "GET").toUpperCase();
    const auth = authenticate(s, req);
    const candidates = ROUTES.map((rt) => ({ rt, m: rt.re.exec(path) })).filter((x) => x.m);
    const hit = candidates.find((x) => x.rt.method === method) ?? (method === "HEAD" ? candidates.find((x) => x.rt.method === "GET") : undefined);
    if (!hit) {
      if (candidates.length > 0) {
        res.setHeader("allow", [...new Set(candidates.map((x) => x.rt.method))].join(", "));
        throw new HttpError(405, `method ${method} not allowed`);
      }
      throw new HttpError(404, `no route for ${method} ${path}`);
    }
    style = hit.rt.style;
    if (auth.kind === "meta" && !hit.rt.meta) throw new HttpError(403, "metadata tokens are only valid for metadata endpoints");
    const { raw } = await readBody(req);
    let body: unknown = undefined;
    const hasBody = raw.trim() !== "";
    if (hasBody) {
      try {
        body = JSON.parse(raw);
      } catch {
        throw new HttpError(400, "request body is not valid JSON");
      }
    }
    let params: string[];
    try {
      params = hit.m!.slice(1).map((x) => decodeURIComponent(x));
    } catch {
      throw new HttpError(400, "malformed path");
    }
    if (hit.rt.re.source.includes("by-slug")) params[1] = hit.m![2]!;
    const ctx: Ctx = { req, res, method, path, query: url.searchParams, params, body, hasBody, style, auth };
    const out = await hit.rt.h(s, ctx, params);
    if (out === "sent") return;
    if (out.status === 204) {
      res.writeHead(204);
      res.end();
      return;
    }
    sendJson(res, out.status ?? 200, out.body);
  } catch (e) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (e instanceof HttpError) {
      if (e.status === 401) res.setHeader("www-authenticate", 'Bearer realm="platform"');
      sendError(res, e, style);
    } else {
      sendError(res, new HttpError(400, "request could not be processed"), style);
    }
  }
}

export async function startIndependentServer(opts?: { host?: string; port?: number }): Promise<{ url: string; token: string; close(): Promise<void> }> {
  const s = seed();
  const server = createServer((req, res) => {
    handle(s, req, res).catch(() => {
      try {
        res.destroy();
      } catch {
        /* ignore */
      }
    });
  });
  server.on("clientError", (_e, sock) => {
    try {
      sock.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n");
    } catch {
      /* ignore */
    }
  });
  const host = opts?.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts?.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    token: s.token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
