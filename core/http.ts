import { Agent, request } from "undici";
import type { Redactor } from "./redact.js";

/** A credential as the client holds it: the value, and the env var a curl line names instead. */
export interface Credential {
  role: string;
  value: string;
  envVar: string;
}

export interface RequestSpec {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, string | number | boolean | null | undefined>;
  /** A JSON body; use rawBody for bodies that must not be serialised (malformed JSON, say). */
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** Overrides the credential; null sends no Authorization header at all. */
  credential?: Credential | null;
}

/** One request and its answer, as a report shows it: redacted, the body cut to an excerpt. */
export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseExcerpt?: string;
  durationMs: number;
  error?: string;
  curl: string;
}

export interface Response<T = any> {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body when it is JSON, else undefined (see isJson). */
  body: T;
  isJson: boolean;
  exchange: Exchange;
}

/** The tester could not talk to the server: never a verdict on the server's conformance. */
export class NetworkError extends Error {
  constructor(message: string, readonly exchange: Exchange) {
    super(message);
  }
}

const EXCERPT = 2000;
const MAX_429_RETRIES = 4;
const MAX_429_WAIT_MS = 10_000;

export interface HttpClientOptions {
  baseUrl: string;
  timeoutMs: number;
  redactor: Redactor;
  /** Credentials whose values are replaced in reports; the first one is the default. */
  credential?: Credential;
  observe?: (exchange: Exchange) => void;
  /** The run's bound on the pages of one list walk (--max-pages), read by core/pagination.ts through Api. */
  maxPages?: number;
}

export class HttpClient {
  readonly baseUrl: string;
  private readonly agent: Agent;
  constructor(readonly options: HttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.agent = new Agent({ connections: 16, keepAliveTimeout: 10_000 });
  }

  url(path: string, query?: RequestSpec["query"]): string {
    const u = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  async send(spec: RequestSpec, log?: Exchange[]): Promise<Response> {
    const credential = spec.credential === undefined ? this.options.credential : spec.credential;
    const url = this.url(spec.path, spec.query);
    const headers: Record<string, string> = { accept: "application/json", ...spec.headers };
    const bodyText = spec.rawBody ?? (spec.body === undefined ? undefined : JSON.stringify(spec.body));
    if (bodyText !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type"))
      headers["content-type"] = "application/json";
    if (credential && !Object.keys(headers).some((h) => h.toLowerCase() === "authorization"))
      headers.authorization = `Bearer ${credential.value}`;

    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      const exchange = this.describe(spec.method, url, headers, bodyText, credential);
      try {
        const res = await request(url, {
          method: spec.method,
          headers,
          body: bodyText,
          dispatcher: this.agent,
          headersTimeout: this.options.timeoutMs,
          bodyTimeout: this.options.timeoutMs,
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
        const text = await res.body.text();
        const resHeaders = flattenHeaders(res.headers);
        exchange.durationMs = Math.round(performance.now() - started);
        exchange.status = res.statusCode;
        exchange.responseHeaders = this.options.redactor.value(resHeaders);
        exchange.responseExcerpt = this.options.redactor.text(text).slice(0, EXCERPT);
        if (res.statusCode === 429 && attempt < MAX_429_RETRIES) {
          await sleep(retryAfterMs(resHeaders["retry-after"], attempt));
          continue;
        }
        log?.push(exchange);
        this.options.observe?.(exchange);
        const parsed = parseJson(text, resHeaders["content-type"]);
        return { status: res.statusCode, headers: resHeaders, text, body: parsed.value, isJson: parsed.ok, exchange };
      } catch (err) {
        exchange.durationMs = Math.round(performance.now() - started);
        exchange.error = describeNetworkError(err, this.options.timeoutMs);
        log?.push(exchange);
        this.options.observe?.(exchange);
        throw new NetworkError(`${spec.method} ${exchange.url}: ${exchange.error}`, exchange);
      }
    }
  }

  /**
   * The same request, answered as a byte stream: for bodies too large to hold (the audit export).
   * 429 is not retried here; the caller sees it as a status.
   */
  async stream(spec: RequestSpec, log?: Exchange[]): Promise<{ status: number; headers: Record<string, string>; body: NodeJS.ReadableStream; exchange: Exchange }> {
    const credential = spec.credential === undefined ? this.options.credential : spec.credential;
    const url = this.url(spec.path, spec.query);
    const headers: Record<string, string> = { ...spec.headers };
    if (credential) headers.authorization = `Bearer ${credential.value}`;
    const exchange = this.describe(spec.method, url, headers, undefined, credential);
    const started = performance.now();
    try {
      const res = await request(url, { method: spec.method, headers, dispatcher: this.agent, headersTimeout: this.options.timeoutMs, bodyTimeout: this.options.timeoutMs });
      exchange.durationMs = Math.round(performance.now() - started);
      exchange.status = res.statusCode;
      exchange.responseHeaders = this.options.redactor.value(flattenHeaders(res.headers));
      exchange.responseExcerpt = "(streamed)";
      log?.push(exchange);
      this.options.observe?.(exchange);
      return { status: res.statusCode, headers: flattenHeaders(res.headers), body: res.body, exchange };
    } catch (err) {
      exchange.error = describeNetworkError(err, this.options.timeoutMs);
      log?.push(exchange);
      throw new NetworkError(`${spec.method} ${exchange.url}: ${exchange.error}`, exchange);
    }
  }

  private describe(method: string, url: string, headers: Record<string, string>, body: string | undefined, credential: Credential | null | undefined): Exchange {
    const r = this.options.redactor;
    const shownHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) shownHeaders[k] = k.toLowerCase() === "authorization" ? redactAuthorization(v) : r.text(v);
    return {
      method,
      url: r.text(url),
      requestHeaders: shownHeaders,
      requestBody: body === undefined ? undefined : r.text(body).slice(0, EXCERPT),
      durationMs: 0,
      curl: curlLine(method, r.text(url), headers, body === undefined ? undefined : r.text(body), credential ?? undefined),
    };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function redactAuthorization(value: string): string {
  const scheme = value.split(/\s+/)[0];
  return value.includes(" ") ? `${scheme} [REDACTED]` : "[REDACTED]";
}

/** A shell line that replays the request; the credential appears only as its env var. */
export function curlLine(method: string, url: string, headers: Record<string, string>, body: string | undefined, credential?: Credential): string {
  const parts = ["curl -sS -i", "-X", method, shq(url)];
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === "accept") continue;
    if (k.toLowerCase() === "authorization") {
      if (credential && v.includes(credential.value)) {
        parts.push("-H", `"${k}: ${v.replace(credential.value, "$" + credential.envVar)}"`);
      } else {
        parts.push("-H", shq(`${k}: ${redactAuthorization(v)}`));
      }
      continue;
    }
    parts.push("-H", shq(`${k}: ${v}`));
  }
  if (body !== undefined) parts.push("--data-raw", shq(body));
  return parts.join(" ");
}

function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

function parseJson(text: string, contentType: string | undefined): { ok: boolean; value: any } {
  if (text.trim() === "") return { ok: false, value: undefined };
  if (contentType && !/json/i.test(contentType) && !/^\s*[[{]/.test(text)) return { ok: false, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, value: undefined };
  }
}

export function retryAfterMs(header: string | undefined, attempt: number): number {
  const fallback = Math.min(MAX_429_WAIT_MS, 250 * 2 ** attempt);
  if (!header) return fallback;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.min(MAX_429_WAIT_MS, Math.max(0, seconds * 1000));
  const date = Date.parse(header);
  if (Number.isFinite(date)) return Math.min(MAX_429_WAIT_MS, Math.max(0, date - Date.now()));
  return fallback;
}

function describeNetworkError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === "TimeoutError" || e?.name === "AbortError" || e?.code === "UND_ERR_HEADERS_TIMEOUT" || e?.code === "UND_ERR_BODY_TIMEOUT")
    return `no answer within ${timeoutMs} ms`;
  const code = e?.cause?.code ?? e?.code;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  return e?.cause?.message ?? e?.message ?? String(err);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
