import { createHash, createHmac, randomUUID } from "node:crypto";

/** ISO 8601 timestamp with milliseconds and an explicit +00:00 offset. */
export function iso(d: Date | number = Date.now()): string {
  return new Date(d).toISOString().replace("Z", "+00:00");
}

export function uuid(): string {
  return randomUUID();
}

/** Deterministic UUID-shaped id derived from a seed string. */
export function seededUuid(seed: string): string {
  const h = createHash("sha1").update(seed).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function sha(text: string, len = 40): string {
  return createHash("sha1").update(text).digest("hex").slice(0, len);
}

export class HttpError extends Error {
  constructor(
    public statusCode: number,
    message: string,
    public code?: string,
    public extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const notFound = (what: string): HttpError => new HttpError(404, `${what} not found`, "not_found");
export const forbidden = (why: string): HttpError => new HttpError(403, why, "forbidden");
export const badRequest = (why: string, code = "bad_request"): HttpError => new HttpError(400, why, code);

function b64url(input: Buffer | string): string {
  return Buffer.from(input).toString("base64url");
}

/** Minimal HS256 JWT. */
export function signJwt(payload: Record<string, unknown>, secret: string): string {
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64url(JSON.stringify(payload));
  const sig = createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${sig}`;
}

export function verifyJwt(token: string, secret: string): Record<string, unknown> | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [head, body, sig] = parts as [string, string, string];
  const expect = createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
  if (expect !== sig) return null;
  try {
    return JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
  } catch {
    return null;
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function csvCell(value: unknown): string {
  const s = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function clone<T>(v: T): T {
  return structuredClone(v);
}
