// Small HTTP helpers: errors, JSON bodies, query parsing, pagination.
import type { IncomingMessage } from "node:http";

export type ErrorStyle = "control" | "platform";

export class HttpError extends Error {
  constructor(
    public status: number,
    message: string,
    public code?: string,
    public extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface Reply {
  status: number;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

export const ok = (body: unknown, status = 200): Reply => ({ status, body });
export const noContent = (): Reply => ({ status: 204 });

export function errorBody(style: ErrorStyle, err: HttpError): Record<string, unknown> {
  if (style === "control") {
    const b: Record<string, unknown> = { error: err.message };
    if (err.code) b.code = err.code;
    return { ...b, ...(err.extra ?? {}) };
  }
  const b: Record<string, unknown> = { message: err.message, code: err.code ?? defaultCode(err.status) };
  return { ...b, ...(err.extra ?? {}) };
}

function defaultCode(status: number): string {
  switch (status) {
    case 400:
      return "bad_request";
    case 401:
      return "unauthenticated";
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
    case 422:
      return "validation_failed";
    default:
      return "error";
  }
}

const MAX_BODY = 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_BODY) throw new HttpError(413, "request body too large");
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Parses a JSON body. Empty body yields undefined. Invalid JSON is a 400. */
export function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "request body is not valid JSON");
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function requireObjectBody(body: unknown): Record<string, unknown> {
  if (!isObject(body)) throw new HttpError(422, "request body must be a JSON object");
  return body;
}

/** Lenient integer: accepts integers and strings of digits. */
export function toInt(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isSafeInteger(v)) return v;
  if (typeof v === "string" && /^-?\d{1,15}$/.test(v.trim())) return Number(v.trim());
  return undefined;
}

/** Lenient boolean: accepts booleans and the strings "true"/"false". */
export function toBool(v: unknown): boolean | undefined {
  if (typeof v === "boolean") return v;
  if (v === "true") return true;
  if (v === "false") return false;
  return undefined;
}

export function queryInt(q: URLSearchParams, name: string, min: number): number | undefined {
  const raw = q.get(name);
  if (raw === null || raw === "") return undefined;
  const n = toInt(raw);
  if (n === undefined) throw new HttpError(422, `query parameter ${name} must be an integer`);
  if (n < min) throw new HttpError(422, `query parameter ${name} must be >= ${min}`);
  return n;
}

export const OFFSET_DEFAULT_LIMIT = 20;
export const MAX_PAGE = 50;
export const CURSOR_DEFAULT_FIRST = 7;

export interface OffsetPage<T> {
  items: T[];
  pagination: { offset: number; limit: number; total: number };
}

export function offsetPage<T>(all: T[], q: URLSearchParams, limitMin = 1): OffsetPage<T> {
  const offset = queryInt(q, "offset", 0) ?? 0;
  const limit = Math.min(queryInt(q, "limit", limitMin) ?? OFFSET_DEFAULT_LIMIT, MAX_PAGE);
  return { items: all.slice(offset, offset + limit), pagination: { offset, limit, total: all.length } };
}

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor?: string;
  endCursor?: string;
}

export function encodeCursor(key: string | number): string {
  return Buffer.from(JSON.stringify({ v: 2, k: key }), "utf8").toString("base64url");
}

export function decodeCursor(raw: string): string | number {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    if (isObject(parsed) && parsed.v === 2 && (typeof parsed.k === "string" || typeof parsed.k === "number")) return parsed.k;
  } catch {
    /* fall through */
  }
  throw new HttpError(422, "invalid cursor in 'after'");
}

/**
 * Keyset cursor pagination. `list` must already be sorted consistently with `cmp`.
 * The cursor carries the key of the last returned item.
 */
export function cursorPage<T, K extends string | number>(
  list: T[],
  keyOf: (t: T) => K,
  cmp: (a: K, b: K) => number,
  q: URLSearchParams,
): { items: T[]; pageInfo: PageInfo } {
  const first = Math.min(queryInt(q, "first", 1) ?? CURSOR_DEFAULT_FIRST, MAX_PAGE);
  const afterRaw = q.get("after");
  let rest = list;
  let hasPrev = false;
  if (afterRaw !== null && afterRaw !== "") {
    const k = decodeCursor(afterRaw) as K;
    if (list.length > 0 && typeof k !== typeof keyOf(list[0])) throw new HttpError(422, "invalid cursor in 'after'");
    rest = list.filter((t) => cmp(keyOf(t), k) > 0);
    hasPrev = rest.length < list.length;
  }
  const items = rest.slice(0, first);
  const pageInfo: PageInfo = { hasNextPage: rest.length > first, hasPreviousPage: hasPrev };
  if (items.length > 0) {
    pageInfo.startCursor = encodeCursor(keyOf(items[0]));
    pageInfo.endCursor = encodeCursor(keyOf(items[items.length - 1]));
  }
  return { items, pageInfo };
}

export const numAsc = (a: number, b: number): number => a - b;
export const numDesc = (a: number, b: number): number => b - a;
export const strAsc = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** ISO date-time with explicit +00:00 offset and no milliseconds. */
export function isoOffset(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "+00:00");
}
