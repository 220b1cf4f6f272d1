import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import swagger from "@fastify/swagger";
import { Store } from "./store.js";
import { sharedSchemas } from "./schemas.js";
import { HttpError, verifyJwt } from "./util.js";
import { makeCaller, type Caller } from "./access.js";
import { deploymentRoutes } from "./routes/deployments.js";
import { opsRoutes } from "./routes/ops.js";
import { buildRoutes } from "./routes/build.js";
import { dataModelRoutes } from "./routes/datamodel.js";
import { workbookRoutes } from "./routes/workbooks.js";
import { workspaceRoutes } from "./routes/workspace.js";
import { reportRoutes } from "./routes/reports.js";
import { embedRoutes } from "./routes/embed.js";
import { userRoutes } from "./routes/users.js";
import { adminRoutes } from "./routes/admin.js";
import { notificationRoutes } from "./routes/notifications.js";

export interface AppOptions {
  store?: Store;
  rateLimitPerSecond?: number;
  rateBurst?: number;
}
export type RouteOpts = { store: Store };

function errorBody(statusCode: number, message: string, code?: string, extra?: Record<string, unknown>) {
  return { error: message, message, statusCode, ...(code ? { code } : {}), ...(extra ?? {}) };
}

function convertLegacyWidgets(v: unknown, depth = 0): void {
  if (depth > 8 || typeof v !== "object" || v === null) return;
  if (Array.isArray(v)) {
    for (const x of v) convertLegacyWidgets(x, depth + 1);
    return;
  }
  const o = v as Record<string, unknown>;
  if (o.type === "TABS_CONTAINER" && typeof o.id === "string") {
    o.type = "CONTAINER";
    o.config = { ...(typeof o.config === "object" && o.config ? o.config : {}), layout: "tabs" };
  }
  for (const x of Object.values(o)) convertLegacyWidgets(x, depth + 1);
}

export async function buildApp(opts: AppOptions = {}): Promise<{ app: FastifyInstance; store: Store }> {
  const store = opts.store ?? new Store();
  const app = Fastify({
    logger: false,
    ajv: { customOptions: { coerceTypes: "array", useDefaults: true, removeAdditional: false, allErrors: true } },
    bodyLimit: 5 * 1024 * 1024,
  });
  for (const s of sharedSchemas) app.addSchema(s);

  // JSON parser that tolerates an empty body (treated as "no body").
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new HttpError(400, "Request body is not valid JSON", "invalid_json") as unknown as FastifyError, undefined);
    }
  });

  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Analytics Platform API",
        version: "1.0.0",
        description: "Management API of the hosted analytics platform (independent implementation). See CHOICES.md for open points.",
      },
      servers: [{ url: "/" }],
      components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "Account API key" } } },
      security: [{ bearerAuth: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _frag, i) => String(json.$id ?? `def-${i}`) },
  });

  // 1) Trailing slash: permanent redirect (308 keeps method and body) to the slash-less path.
  app.addHook("onRequest", async (req, reply) => {
    const q = req.url.indexOf("?");
    const path = q === -1 ? req.url : req.url.slice(0, q);
    if (path.length > 1 && path.endsWith("/")) {
      const target = path.replace(/\/+$/, "") + (q === -1 ? "" : req.url.slice(q));
      return reply
        .code(308)
        .header("location", target)
        .send(errorBody(308, `Moved permanently to ${target}`, "trailing_slash"));
    }
  });

  // 2) Bearer authentication, 3) per-key token bucket.
  const rate = opts.rateLimitPerSecond ?? 50;
  const burst = opts.rateBurst ?? 100;
  const buckets = new Map<string, { tokens: number; at: number }>();
  app.addHook("onRequest", async (req, reply) => {
    const h = req.headers.authorization ?? "";
    const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
    if (!m) {
      reply.header("www-authenticate", 'Bearer realm="api"');
      throw new HttpError(401, h ? "Malformed Authorization header; expected Bearer <API_KEY>" : "Missing bearer token", "unauthorized");
    }
    const token = m[1]!;
    const key = store.keys.get(token);
    if (!key) {
      const claims = verifyJwt(token, store.jwtSecret);
      if (claims && claims.scope === "meta") {
        throw new HttpError(403, "Metadata tokens are limited to metadata endpoints", "token_scope");
      }
      reply.header("www-authenticate", 'Bearer realm="api", error="invalid_token"');
      throw new HttpError(401, "Invalid API key", "unauthorized");
    }
    const user = store.users.get(key.userId);
    if (!user || user.status !== "active") throw new HttpError(401, "API key owner is deactivated", "unauthorized");
    const now = Date.now();
    const b = buckets.get(token) ?? { tokens: burst, at: now };
    b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * rate);
    b.at = now;
    if (b.tokens < 1) {
      buckets.set(token, b);
      reply.header("retry-after", String(Math.max(1, Math.ceil((1 - b.tokens) / rate))));
      throw new HttpError(429, "Rate limit exceeded", "rate_limited");
    }
    b.tokens -= 1;
    buckets.set(token, b);
    reply.header("x-ratelimit-limit", String(rate));
    reply.header("x-ratelimit-remaining", String(Math.floor(b.tokens)));
    (req as FastifyRequest & { caller?: Caller }).caller = makeCaller(key, user);
  });

  app.addHook("preValidation", async (req) => {
    if (req.body === undefined && ["POST", "PUT", "PATCH"].includes(req.method)) req.body = {};
    convertLegacyWidgets(req.body);
    const q = req.query as Record<string, unknown> | undefined;
    for (const k of ["folderId", "parentId"]) if (q && q[k] === "null") q[k] = "";
  });

  app.setErrorHandler((err: FastifyError | HttpError, _req: FastifyRequest, reply: FastifyReply) => {
    if ("validation" in err && err.validation && (err as FastifyError).validationContext === "params") {
      return reply.code(404).send(errorBody(404, `No resource at this path (${err.message})`, "not_found"));
    }
    if ("validation" in err && err.validation) {
      return reply.code(422).send(errorBody(422, err.message, "validation_failed", { details: err.validation as unknown as Record<string, unknown>[] }));
    }
    if (err instanceof HttpError) return reply.code(err.statusCode).send(errorBody(err.statusCode, err.message, err.code, err.extra));
    const status = typeof err.statusCode === "number" && err.statusCode >= 400 ? err.statusCode : 500;
    return reply.code(status).send(errorBody(status, status === 500 ? "Internal server error" : err.message, err.code));
  });
  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send(errorBody(404, `Route ${req.method} ${req.url.split("?")[0]} not found`, "route_not_found"));
  });

  app.get(
    "/api/v1/spec",
    {
      schema: {
        tags: ["meta"],
        summary: "The OpenAPI 3.1 document of this server",
        response: { 200: { type: "object", additionalProperties: true } },
      },
    },
    async () => app.swagger(),
  );

  const ro: RouteOpts = { store };
  for (const r of [
    deploymentRoutes,
    opsRoutes,
    buildRoutes,
    dataModelRoutes,
    workbookRoutes,
    workspaceRoutes,
    reportRoutes,
    embedRoutes,
    userRoutes,
    adminRoutes,
    notificationRoutes,
  ]) {
    await app.register(r, ro);
  }
  return { app, store };
}
