import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { startReference, type RunningReference } from "../reference/server.js";

/**
 * How a broken server can answer. Each is something real servers and proxies do: a body cut off,
 * a reset, a request left hanging, a rate-limit storm, an HTML page from a web app in front.
 */
export const chaosModes = [
  "invalid-json",
  "wrong-content-type",
  "truncated",
  "reset",
  "hang",
  "huge",
  "429-storm",
  "429-once",
  "5xx",
  "drip",
  "redirect-loop",
  "html",
] as const;
export type ChaosMode = (typeof chaosModes)[number];

/** Requests whose method and path match are answered in the given mode; all others reach the reference. */
export interface ChaosRule {
  method?: string;
  path: RegExp;
  mode: ChaosMode;
  /** Break only one matching request in this many (every 50th: 2 %); the others reach the reference. */
  every?: number;
}

export interface ChaosServer {
  url: string;
  ref: RunningReference;
  /** Replaces the rules; requests already under way keep theirs. */
  setRules(rules: ChaosRule[]): void;
  /** How many requests each mode answered since the last setRules. */
  hits: Map<ChaosMode, number>;
  /** The longest a request passed through to the reference took, from its arrival to its answer's end, since the last setRules. */
  slowestPassThroughMs(): number;
  close(): Promise<void>;
}

export const HUGE_BODY_BYTES = 5 * 1024 * 1024;
const DRIP_EVERY_MS = 40;
const HTML = "<!doctype html><html><head><title>Analytics</title></head><body><div id=app></div></body></html>";

/**
 * A reference server behind a proxy that breaks the answers of chosen routes. The rest of the API
 * answers as the reference does, so that discovery works and each mode hits the checks of its
 * routes only.
 */
export async function startChaos(rules: ChaosRule[] = []): Promise<ChaosServer> {
  const ref = await startReference();
  const target = new URL(ref.url);
  const huge = Buffer.from(JSON.stringify({ data: "x".repeat(HUGE_BODY_BYTES) }));
  let current = rules;
  const hits = new Map<ChaosMode, number>();
  const answeredOnce = new Set<string>();
  const seenBy = new Map<ChaosRule, number>();
  let slowest = 0;

  /** The reference's own answer, whole: for the modes that mangle it. */
  const upstream = (req: IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      });
      out.on("error", reject);
      out.end(body);
    });

  const answer = async (mode: ChaosMode | undefined, req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    switch (mode) {
      case undefined: {
        const real = await upstream(req, body);
        res.writeHead(real.status, real.headers).end(real.body);
        return;
      }
      case "invalid-json":
        res.writeHead(200, { "content-type": "application/json" }).end('{"items": [{"id": 1, "name": "cut');
        return;
      case "wrong-content-type": {
        const real = await upstream(req, body);
        res.writeHead(real.status, { ...real.headers, "content-type": "text/plain" }).end(real.body);
        return;
      }
      case "truncated": {
        const real = await upstream(req, body);
        const { "transfer-encoding": _, ...headers } = real.headers;
        res.writeHead(real.status, { ...headers, "content-length": real.body.length + 500 });
        res.write(real.body.subarray(0, Math.floor(real.body.length / 2)));
        setTimeout(() => res.destroy(), 10);
        return;
      }
      case "reset":
        req.socket.resetAndDestroy();
        return;
      case "hang":
        return;
      case "huge":
        res.writeHead(200, { "content-type": "application/json", "content-length": huge.length }).end(huge);
        return;
      case "429-storm":
        // Retry-After 0 keeps the test fast; waiting as it asks is proven in http.test.ts.
        res.writeHead(429, { "retry-after": "0", "content-type": "application/json" }).end('{"error":"too many requests"}');
        return;
      case "429-once": {
        const key = `${req.method} ${req.url}`;
        if (answeredOnce.has(key)) return answer(undefined, req, res, body);
        answeredOnce.add(key);
        res.writeHead(429, { "retry-after": "0" }).end();
        return;
      }
      case "5xx":
        res.writeHead(500, { "content-type": "application/json" }).end('{"error":"internal error"}');
        return;
      case "drip": {
        const real = await upstream(req, body);
        res.writeHead(real.status, { "content-type": "application/json" });
        let at = 0;
        const timer = setInterval(() => {
          if (res.destroyed || at >= real.body.length) {
            clearInterval(timer);
            res.end();
            return;
          }
          res.write(real.body.subarray(at, ++at));
        }, DRIP_EVERY_MS);
        res.on("close", () => clearInterval(timer));
        return;
      }
      case "redirect-loop":
        res.writeHead(302, { location: req.url ?? "/" }).end();
        return;
      case "html":
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(HTML);
        return;
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    const arrived = performance.now();
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://chaos").pathname;
      const matching = current.find((r) => (!r.method || r.method === req.method) && r.path.test(path));
      const seen = matching ? (seenBy.get(matching) ?? 0) + 1 : 0;
      if (matching) seenBy.set(matching, seen);
      const rule = matching && seen % (matching.every ?? 1) === 0 ? matching : undefined;
      if (rule) hits.set(rule.mode, (hits.get(rule.mode) ?? 0) + 1);
      else res.on("finish", () => (slowest = Math.max(slowest, performance.now() - arrived)));
      answer(rule?.mode, req, res, Buffer.concat(chunks)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    ref,
    hits,
    slowestPassThroughMs: () => slowest,
    setRules(next) {
      current = next;
      slowest = 0;
      hits.clear();
      answeredOnce.clear();
      seenBy.clear();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ref.close();
    },
  };
}
