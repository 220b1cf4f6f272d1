import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { recordAudit } from "./audit-log.js";
import { cleanBehaviour, type Behaviour } from "./behaviour.js";
import { type Fault, faultNamed } from "./faults.js";
import { type App, HttpError, type Reply, type Req, type ReferenceOptions, targets } from "./http.js";
import { matchOperation, matchPath, segmentCount } from "../core/api/match.js";
import { OPERATIONS, type OperationName, operation } from "../core/api/operations.js";
import { routes } from "./routes/index.js";
import { seed, type Seeded, seedShapes } from "./seed.js";
import { variantNamed } from "./variants.js";

const MAX_BODY = 1 << 20;
/**
 * The E11 decide/apply window. Writers sent at once still race in 2 ms: the suite's races drew
 * their 409s in 55 of 55 runs at 0-2 ms, on a loaded 2-core machine and behind 40 ms of latency.
 * 15 ms cost a run at concurrency 1 seven seconds of sleeping (some 470 upserts, most of them sequential).
 */
const UPSERT_WINDOW_MS = 2;

export interface StartOptions {
  host?: string;
  port?: number;
  faults?: string[];
  variants?: string[];
  upsertDelayMs?: number;
  /** Added to every answer, as a server in another region would (benchmarks; --latency). */
  latencyMs?: number;
  /** Which seed to start from (see SeedShape): the suite must not care. */
  seedShape?: keyof typeof seedShapes;
}

export interface RunningReference {
  url: string;
  app: App;
  seeded: Seeded;
  /** A config for `conformance --config`: the base URL, every token, the fixtures it cannot discover. */
  config(): Record<string, unknown>;
  close(): Promise<void>;
}

/**
 * Each route at its row of the operation table (method, path, section): the router serves the
 * table's templates, with the table's matcher (core/api/match.ts), as the suite reads them.
 */
function literalSegments(pattern: string): number {
  return pattern.split("/").filter((seg) => seg && !seg.startsWith("{")).length;
}
const compiled = routes.map((r) => {
  const row = r.operation !== undefined ? operation(r.operation) : { ...r.unlisted!, section: "E14" };
  return {
    ...r,
    method: row.method,
    pattern: row.path,
    spec: row.section,
    literals: literalSegments(row.path),
    match: (path: string) => matchPath(row.path, path),
  };
});
/** The routes by their number of segments, in their order: a path is tried against those of its length only. */
const bySegments = new Map<number, typeof compiled>();
for (const route of compiled) bySegments.set(segmentCount(route.pattern), [...(bySegments.get(segmentCount(route.pattern)) ?? []), route]);

export function buildApp(opts: StartOptions = {}): { app: App; seeded: Seeded } {
  const faults: Fault[] = (opts.faults ?? []).map(faultNamed);
  const chosen = (opts.variants ?? []).map(variantNamed);
  const behaviour: Behaviour = Object.assign({}, cleanBehaviour, ...chosen.map((v) => v.behaviour ?? {}), ...faults.map((f) => f.behaviour ?? {}));
  const seeded = seed(seedShapes[opts.seedShape ?? "default"]);
  const options: ReferenceOptions = {
    upsertDelayMs: opts.upsertDelayMs ?? UPSERT_WINDOW_MS,
    latencyMs: opts.latencyMs ?? 0,
    variants: new Set(opts.variants ?? []),
  };
  return { app: { store: seeded.store, b: behaviour, faults, options }, seeded };
}

export async function startReference(opts: StartOptions = {}): Promise<RunningReference> {
  const { app, seeded } = buildApp(opts);
  const server = createServer((req, res) => {
    handle(app, req, res).catch((err) => {
      // A crash here is a bug of the reference; it still answers, and says so.
      if (!res.headersSent) send(res, { status: 500, body: { error: `reference server bug: ${(err as Error).message}` } });
      else res.destroy();
    });
  });
  // Longer than any client's keep-alive (the suite's is 10 s): the client closes an idle connection
  // first. At 5 s, a client whose timer ran late on a busy machine sent on a connection this server
  // was closing, and met a reset (the kept-alive race of RFC 9112, section 9.3.1) on a write it
  // cannot send again. Below headersTimeout (60 s), as Node asks.
  server.keepAliveTimeout = 30_000;
  await listen(server, opts.port ?? 0, opts.host ?? "127.0.0.1");
  const { port } = server.address() as AddressInfo;
  const host = opts.host ?? "127.0.0.1";
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    url,
    app,
    seeded,
    config: () => ({
      baseUrl: url,
      token: seeded.tokens.primary,
      tokens: {
        readOnly: seeded.tokens.readOnly,
        noAudit: seeded.tokens.noAudit,
        auditor: seeded.tokens.auditor,
        creator: seeded.tokens.creator,
        viewer: seeded.tokens.viewer,
        scoped: seeded.tokens.scoped,
      },
      fixtures: seeded.fixtures,
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

async function handle(app: App, raw: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(raw.url ?? "/", "http://reference.local");
  const method = (raw.method ?? "GET").toUpperCase();
  let reply: Reply;
  let spec: string | undefined;
  // The methods a refused method's path takes, as the policy names them (Allow).
  let allow: string | undefined;
  try {
    const bodyText = await readBody(raw);
    for (const v of chosenVariants(app)) {
      const transient = v.transient?.(app);
      if (transient) return await answerLater(app, res, transient);
    }
    const user = app.b.authenticate(raw.headers.authorization, app.store, {
      method,
      operation: matchOperation(OPERATIONS, method, url.pathname)?.operation.name as OperationName | undefined,
    });
    if (!user) return await answerLater(app, res, shapedError(app, app.b.unauthenticated()));
    // OpenAPI, Paths Object: a concrete path is matched before a templated one. Of the paths the URL
    // matches, only the most concrete answer it: PUT /api/v1/users/bulk is a 405, not user "bulk".
    const matches = (bySegments.get(segmentCount(url.pathname)) ?? []).flatMap((route) => {
      const params = route.match(url.pathname);
      return params ? [{ route, params }] : [];
    });
    const concrete = Math.max(0, ...matches.map((m) => m.route.literals));
    const candidates = matches.filter((m) => m.route.literals === concrete);
    const found = candidates.find((m) => m.route.method === method);
    const allowed = new Set(candidates.map((m) => m.route.method));
    if (!found && allowed.size) {
      const refusal = app.b.unsupportedMethod(method, [...allowed].sort());
      if (refusal.allow) allow = refusal.allow.join(", ");
      throw new HttpError(refusal.status, refusal.message);
    }
    if (!found) throw new HttpError(404, `no route ${url.pathname}`);
    const depId = found.params.deploymentId;
    if (depId !== undefined && /^\d+$/.test(depId) && !app.b.reachesDeployment(user, Number(depId), url.pathname))
      throw new HttpError(403, `this API key is not scoped to deployment ${depId}`);
    const req: Req = {
      method,
      path: url.pathname,
      params: found.params,
      operation: found.route.operation,
      query: url.searchParams,
      body: parseBody(bodyText, raw.headers["content-type"], (text) => app.b.jsonBody(text, found.route.operation)),
      user,
      raw,
    };
    spec = found.route.spec;
    for (const v of chosenVariants(app)) if (v.request && v.routes.includes(spec)) v.request(req, app);
    req.body = readAsVariants(app, spec, req);
    reply = await handled(app, spec, req, () => found.route.handler(req, app));
    reply = transform(app, found.route.spec, req, reply);
    recordAudit(app, found.route.spec, req, reply);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    reply = app.b.requestErrorReply(spec, err.status, { error: err.message, ...err.extra });
    if (allow) reply = { ...reply, headers: { ...reply.headers, Allow: allow } };
  }
  await answerLater(app, res, shapedError(app, reply));
}

/** The route's handler inside the `handle` policy of every fault on its section or operation, the first outermost. */
function handled(app: App, spec: string, req: Req, handler: () => Reply | Promise<Reply>): Promise<Reply> {
  const policies = app.faults.filter((f) => f.handle && targets(f, spec, req));
  const run = async (i: number): Promise<Reply> => (i === policies.length ? handler() : policies[i].handle!({ req, app, next: () => run(i + 1) }));
  return run(0);
}

const chosenVariants = (app: App) => [...app.options.variants].map(variantNamed);

/** An error answer in the body shape a variant chooses (the spec shows only `{error}`). */
function shapedError(app: App, reply: Reply): Reply {
  if (reply.status < 400 || reply.body === undefined) return reply;
  let body = reply.body;
  for (const v of chosenVariants(app)) if (v.error) body = v.error(reply.status, body);
  return { ...reply, body };
}

/** The request body as the variants that choose how to read requests take it. */
function readAsVariants(app: App, spec: string, req: Req): any {
  let body = req.body;
  for (const v of chosenVariants(app)) if (v.readRequestBody && v.routes.includes(spec)) body = v.readRequestBody(body, req);
  return body;
}

/** Sends the answer after the configured latency: a remote server's round trip, as the client sees it. */
async function answerLater(app: App, res: ServerResponse, reply: Reply): Promise<void> {
  if (app.options.latencyMs > 0) await new Promise((r) => setTimeout(r, app.options.latencyMs));
  if (chosenVariants(app).some((v) => v.dateless)) res.sendDate = false;
  send(res, reply);
}

/** Variants first (documented shapes), then faults (broken rules), each keyed by the spec section. */
function transform(app: App, spec: string, req: Req, reply: Reply): Reply {
  let body = reply.body;
  for (const v of chosenVariants(app)) if (v.respond && v.routes.includes(spec) && reply.status < 300) body = v.respond(body, req, app);
  for (const f of app.faults) if (f.respond && targets(f, spec, req)) body = f.respond({ status: reply.status, body, req, app });
  let out: Reply = { ...reply, body };
  for (const v of chosenVariants(app)) if (v.reply && v.routes.includes(spec) && out.status < 300) out = v.reply(out, req, app);
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new HttpError(413, "request body too large"));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parseBody(text: string, contentType: string | undefined, read: (text: string) => unknown): any {
  if (text.trim() === "") return undefined;
  if (contentType && !/json/i.test(contentType)) throw new HttpError(415, "the body must be JSON");
  try {
    return read(text);
  } catch {
    throw new HttpError(400, "the body is not valid JSON");
  }
}

function send(res: ServerResponse, reply: Reply): void {
  if (reply.stream) {
    res.writeHead(reply.status, reply.headers);
    reply.stream.pipe(res);
    return;
  }
  if (reply.text !== undefined) {
    res.writeHead(reply.status, { "content-length": Buffer.byteLength(reply.text), ...reply.headers });
    res.end(reply.text);
    return;
  }
  const text = reply.body === undefined ? "" : JSON.stringify(reply.body);
  res.writeHead(reply.status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), ...reply.headers });
  res.end(text);
}
