import type { IncomingMessage, ServerResponse } from "node:http";

export class HttpError extends Error {
  constructor(
    public status: number,
    message: string,
    public extra: Record<string, unknown> = {},
    public style: "cp" | "pf" = "pf",
  ) {
    super(message);
  }
}

export type Ctx = {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  params: string[];
  body: unknown;
  hasBody: boolean;
  style: "cp" | "pf";
  auth: { kind: "key" } | { kind: "meta"; deploymentId: string };
};

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

export function sendError(res: ServerResponse, e: HttpError, style: "cp" | "pf"): void {
  const s = e.style === "cp" ? "cp" : style;
  const body = s === "cp" ? { error: e.message, ...e.extra } : { message: e.message, statusCode: e.status, ...e.extra };
  sendJson(res, e.status, body);
}

export const bad = (m: string) => new HttpError(400, m);
export const invalid = (m: string) => new HttpError(422, m);
export const notFound = (m: string) => new HttpError(404, m);

export async function readBody(req: IncomingMessage): Promise<{ raw: string; size: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    const b = c as Buffer;
    size += b.length;
    if (size > 1_000_000) throw new HttpError(413, "request body too large");
    chunks.push(b);
  }
  return { raw: Buffer.concat(chunks).toString("utf8"), size };
}

export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function bodyObj(ctx: Ctx, optional = false): Record<string, unknown> {
  if (!ctx.hasBody) {
    if (optional) return {};
    throw invalid("request body is required");
  }
  if (!isObj(ctx.body)) throw invalid("request body must be a JSON object");
  return ctx.body;
}

export function isInt(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v);
}

/** Strict integer query parsing: digits only. */
export function qInt(q: URLSearchParams, name: string, min: number, max?: number): number | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (!/^-?\d{1,15}$/.test(v)) throw bad(`query parameter '${name}' must be an integer`);
  const n = Number(v);
  if (n < min) throw bad(`query parameter '${name}' must be >= ${min}`);
  if (max !== undefined && n > max) return max;
  return n;
}

export const MAX_PAGE = 100;
export const DEFAULT_FIRST = 7;

export function encodeCursor(pos: number): string {
  return "c1." + Buffer.from(`pos:${pos}`).toString("base64url");
}
export function decodeCursor(c: string): number {
  const m = /^c1\.([A-Za-z0-9_-]+)$/.exec(c);
  if (m) {
    const t = Buffer.from(m[1]!, "base64url").toString("utf8");
    const n = /^pos:(\d{1,9})$/.exec(t);
    if (n) return Number(n[1]);
  }
  throw bad("invalid cursor in 'after'");
}

export type PageInfo = { hasNextPage: boolean; hasPreviousPage: boolean; startCursor?: string; endCursor?: string };

/** Cursor page over a full list; cursor encodes the index of the last returned element. */
export function cursorPage<T>(all: T[], q: URLSearchParams, defaultFirst: number | null = DEFAULT_FIRST): { slice: T[]; pageInfo: PageInfo; start: number } {
  const first = qInt(q, "first", 1, MAX_PAGE);
  const after = q.get("after");
  let start = 0;
  if (after !== null && after !== "") start = decodeCursor(after) + 1;
  const size = first ?? defaultFirst ?? all.length;
  const slice = all.slice(start, start + size);
  const pageInfo: PageInfo = { hasNextPage: start + size < all.length, hasPreviousPage: start > 0 };
  if (slice.length > 0) {
    pageInfo.startCursor = encodeCursor(start);
    pageInfo.endCursor = encodeCursor(start + slice.length - 1);
  }
  return { slice, pageInfo, start };
}

export function offsetPage<T>(all: T[], q: URLSearchParams, minLimit = 1): { slice: T[]; pagination: { offset: number; limit: number; total: number } } {
  const offset = qInt(q, "offset", 0) ?? 0;
  const limit = qInt(q, "limit", minLimit, MAX_PAGE) ?? 20;
  return { slice: all.slice(offset, offset + limit), pagination: { offset, limit, total: all.length } };
}

/** ISO date-time without offset (local-less), e.g. 2024-01-15T10:30:00 */
export function isoNoOffset(d: Date): string {
  return d.toISOString().slice(0, 19);
}
export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}
