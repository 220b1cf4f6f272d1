// HTTP plumbing: errors, replies, body reading, query parsing, routing.
import type { IncomingMessage, ServerResponse } from "node:http";

export class HttpError extends Error {
  constructor(
    public status: number,
    message: string,
    public code: string = defaultCode(status),
    public extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

function defaultCode(status: number): string {
  switch (status) {
    case 400:
      return "bad_request";
    case 401:
      return "unauthorized";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 405:
      return "method_not_allowed";
    case 409:
      return "conflict";
    case 413:
      return "payload_too_large";
    case 415:
      return "unsupported_media_type";
    case 422:
      return "validation_failed";
    default:
      return "error";
  }
}

export const bad = (m: string): HttpError => new HttpError(400, m);
export const invalid = (m: string): HttpError => new HttpError(422, m);
export const notFound = (m: string): HttpError => new HttpError(404, m);
export const forbidden = (m: string): HttpError => new HttpError(403, m);
export const conflict = (m: string, code = "conflict"): HttpError => new HttpError(409, m, code);

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  stream?: (res: ServerResponse) => Promise<void>;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const wrap = (data: unknown): Reply => ({ status: 200, body: { data } });
export const created = (data: unknown, location: string): Reply => ({ status: 201, body: { data }, headers: { Location: location } });

export function errorBody(e: HttpError): Record<string, unknown> {
  return { error: e.message, code: e.code, ...e.extra };
}

const MAX_BODY = 1024 * 1024;

export async function readRawBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_BODY) throw new HttpError(413, "request body exceeds 1 MiB");
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Parses a JSON body. Empty body yields undefined. Malformed JSON is a 400. */
export function parseJsonBody(raw: string): unknown {
  if (raw.trim() === "") return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw bad("request body is not valid JSON");
  }
}

export type Json = Record<string, unknown>;

export function isObj(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Requires a JSON object body (422 otherwise). */
export function objBody(body: unknown, optional = false): Json {
  if (body === undefined && optional) return {};
  if (!isObj(body)) throw invalid("request body must be a JSON object");
  return body;
}

// ---- typed body field readers (strict types: a "true" string is not a boolean) ----
export function fStr(b: Json, k: string, req: boolean): string | undefined {
  const v = b[k];
  if (v === undefined) {
    if (req) throw invalid(`${k} is required`);
    return undefined;
  }
  if (typeof v !== "string") throw invalid(`${k} must be a string`);
  return v;
}
export function fBool(b: Json, k: string, req: boolean): boolean | undefined {
  const v = b[k];
  if (v === undefined) {
    if (req) throw invalid(`${k} is required`);
    return undefined;
  }
  if (typeof v !== "boolean") throw invalid(`${k} must be a boolean`);
  return v;
}
export function fInt(b: Json, k: string, req: boolean, nullable = false): number | null | undefined {
  const v = b[k];
  if (v === undefined) {
    if (req) throw invalid(`${k} is required`);
    return undefined;
  }
  if (v === null && nullable) return null;
  if (typeof v !== "number" || !Number.isInteger(v)) throw invalid(`${k} must be an integer${nullable ? " or null" : ""}`);
  return v;
}
export function fObj(b: Json, k: string, req: boolean): Json | undefined {
  const v = b[k];
  if (v === undefined) {
    if (req) throw invalid(`${k} is required`);
    return undefined;
  }
  if (!isObj(v)) throw invalid(`${k} must be an object`);
  return v;
}
export function fEnum<T extends string>(b: Json, k: string, values: readonly T[], req: boolean): T | undefined {
  const v = fStr(b, k, req);
  if (v === undefined) return undefined;
  if (!(values as readonly string[]).includes(v)) throw invalid(`${k} must be one of ${values.join(", ")}`);
  return v as T;
}

// ---- query readers (query validation failures are 400) ----
export function qInt(q: URLSearchParams, k: string, min: number, max?: number): number | undefined {
  const v = q.get(k);
  if (v === null) return undefined;
  if (!/^-?\d+$/.test(v)) throw bad(`query parameter ${k} must be an integer`);
  const n = Number(v);
  if (n < min) throw bad(`query parameter ${k} must be >= ${min}`);
  if (max !== undefined && n > max) throw bad(`query parameter ${k} must be <= ${max}`);
  return n;
}
export function qEnum<T extends string>(q: URLSearchParams, k: string, values: readonly T[]): T | undefined {
  const v = q.get(k);
  if (v === null) return undefined;
  if (!(values as readonly string[]).includes(v)) throw bad(`query parameter ${k} must be one of ${values.join(", ")}`);
  return v as T;
}
export function qBool(q: URLSearchParams, k: string): boolean | undefined {
  const v = q.get(k);
  if (v === null) return undefined;
  if (v === "true") return true;
  if (v === "false") return false;
  throw bad(`query parameter ${k} must be true or false`);
}
export function qDate(q: URLSearchParams, k: string): Date | undefined {
  const v = q.get(k);
  if (v === null) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v)) throw bad(`query parameter ${k} must be an ISO 8601 date`);
  const d = new Date(v.length === 10 ? `${v}T00:00:00Z` : v);
  if (Number.isNaN(d.getTime())) throw bad(`query parameter ${k} must be an ISO 8601 date`);
  return d;
}

// ---- router ----
export type Handler<C> = (c: C) => Reply | Promise<Reply>;
export interface Route<C> {
  method: string;
  parts: string[];
  handler: Handler<C>;
}

export class Router<C> {
  routes: Route<C>[] = [];
  add(method: string, pattern: string, handler: Handler<C>): void {
    this.routes.push({ method, parts: split(pattern), handler });
  }
  match(method: string, path: string): { handler: Handler<C>; params: Record<string, string> } | { allowed: string[] } | null {
    const segs = split(path);
    const allowed: string[] = [];
    for (const r of this.routes) {
      const params = matchParts(r.parts, segs);
      if (!params) continue;
      if (r.method === method) return { handler: r.handler, params };
      allowed.push(r.method);
    }
    return allowed.length ? { allowed } : null;
  }
}

function split(p: string): string[] {
  return p.split("/").filter((s) => s.length > 0);
}

function matchParts(parts: string[], segs: string[]): Record<string, string> | null {
  if (parts.length !== segs.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const s = segs[i]!;
    if (p.startsWith("{") && p.endsWith("}")) {
      let dec: string;
      try {
        dec = decodeURIComponent(s);
      } catch {
        return null;
      }
      params[p.slice(1, -1)] = dec;
    } else if (p !== s) return null;
  }
  return params;
}

export function sendReply(res: ServerResponse, r: Reply): void {
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  if (r.body === undefined) {
    res.writeHead(r.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(r.body);
  headers["Content-Type"] = "application/json; charset=utf-8";
  headers["Content-Length"] = String(Buffer.byteLength(text));
  res.writeHead(r.status, headers);
  res.end(text);
}
