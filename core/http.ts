import { PassThrough } from "node:stream";
import { Agent, type Dispatcher, EnvHttpProxyAgent, request } from "undici";
import { checkScope } from "./check-scope.js";
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

/**
 * An exchange as the invariants read it: unredacted and whole, the request body as sent and the
 * answer as parsed. Handed to the observer once and not kept: a run must not hold every body.
 */
export interface FullAnswer {
  method: string;
  url: URL;
  requestBody?: string;
  status: number;
  text: string;
  body: unknown;
  isJson: boolean;
}

/** The tester could not talk to the server: never a verdict on the server's conformance. */
export class NetworkError extends Error {
  constructor(message: string, readonly exchange: Exchange) {
    super(message);
  }
}

/** The server still answered 429 after the retry budget: not a verdict, the check is errored. */
export class RateLimited extends NetworkError {}

const EXCERPT = 2000;
/**
 * The excerpt is redacted from this much of the body, not all of it (a body of megabytes would
 * be copied once per secret): far past the excerpt, so that a secret cut by it is still whole here.
 */
const REDACTION_WINDOW = 64 * 1024;
const MAX_429_RETRIES = 4;
const MAX_429_WAIT_MS = 10_000;
/** A body past this size is not read on: the spec sets no limit, so it is the tester's, and errored. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** A streamed body may take this many request timeouts in all (60 s at the default 10 s: an example check's own limit). */
const STREAMED_BODY_TIMEOUTS = 6;

export interface HttpClientOptions {
  baseUrl: string;
  /** Per request: until the answer is read whole (send) or its headers arrive (stream); also the longest wait between two chunks of a body. */
  timeoutMs: number;
  redactor: Redactor;
  /** Credentials whose values are replaced in reports; the first one is the default. */
  credential?: Credential;
  /** Every exchange as reports show it, and the whole answer for those read whole (core/invariants.ts reads it, keeps nothing). */
  observe?: (exchange: Exchange, answer?: FullAnswer) => void;
  maxBodyBytes?: number;
  /** The run's bound on the pages of one list walk (--max-pages), read by core/pagination.ts through Api. */
  maxPages?: number;
  /** Sent on every request (--header); a request's own headers win. */
  headers?: Record<string, string>;
  /** Go through HTTPS_PROXY / HTTP_PROXY unless NO_PROXY exempts the host (off for the bundled reference). */
  proxy?: boolean;
}

/** What came back before the body was read. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Dispatcher.ResponseData["body"];
}

/**
 * Redirects are not followed: an API that answers 3xx is judged on that answer (preflight tells
 * the user when the base URL itself redirects), so a redirect loop costs one request.
 */
export class HttpClient {
  readonly baseUrl: string;
  private readonly agent: Dispatcher;
  constructor(readonly options: HttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    const pool = { connections: 16, keepAliveTimeout: 10_000 };
    this.agent = options.proxy ? new EnvHttpProxyAgent(pool) : new Agent(pool);
  }

  url(path: string, query?: RequestSpec["query"]): string {
    const u = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  async send(spec: RequestSpec, log?: Exchange[]): Promise<Response> {
    const credential = spec.credential === undefined ? this.options.credential : spec.credential;
    const url = this.url(spec.path, spec.query);
    const headers: Record<string, string> = { accept: "application/json", ...this.options.headers, ...spec.headers };
    const bodyText = spec.rawBody ?? (spec.body === undefined ? undefined : JSON.stringify(spec.body));
    if (bodyText !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type"))
      headers["content-type"] = "application/json";
    if (credential && !Object.keys(headers).some((h) => h.toLowerCase() === "authorization"))
      headers.authorization = `Bearer ${credential.value}`;

    const { timeoutMs } = this.options;
    for (let attempt = 0; ; attempt++) {
      refuseWhenStopped();
      const started = performance.now();
      const exchange = this.describe(spec.method, url, headers, bodyText, credential);
      // One deadline for the whole exchange: a body that drips in slowly is cut off too.
      const deadline = new Deadline(timeoutMs);
      let answer: Answer | undefined;
      try {
        answer = await this.request(spec.method, url, headers, bodyText, deadline.signal);
        const text = await readCapped(answer, this.options.maxBodyBytes ?? MAX_BODY_BYTES);
        exchange.durationMs = Math.round(performance.now() - started);
        exchange.status = answer.status;
        exchange.responseHeaders = this.options.redactor.value(answer.headers);
        exchange.responseExcerpt = this.options.redactor.text(text.slice(0, REDACTION_WINDOW)).slice(0, EXCERPT);
        if (answer.status === 429) {
          await this.waitOut429(answer, attempt, exchange, log);
          continue;
        }
        const parsed = parseJson(text, answer.headers["content-type"]);
        this.record(exchange, log, { method: spec.method, url: new URL(url), requestBody: bodyText, status: answer.status, text, body: parsed.value, isJson: parsed.ok });
        return { status: answer.status, headers: answer.headers, text, body: parsed.value, isJson: parsed.ok, exchange };
      } catch (err) {
        if (err instanceof NetworkError) throw err;
        throw this.lost(err, exchange, started, answer, log, deadline.ms);
      } finally {
        deadline.release();
      }
    }
  }

  /**
   * The same request, answered as a byte stream: for bodies too large to hold (the audit export).
   * The timeout bounds the wait for the headers and each pause in the body; the whole body gets
   * STREAMED_BODY_TIMEOUTS times as long. A 429 is waited out and retried as in send, and a body
   * that breaks off fails its reader with a NetworkError, as send would.
   */
  async stream(spec: RequestSpec, log?: Exchange[]): Promise<{ status: number; headers: Record<string, string>; body: NodeJS.ReadableStream; exchange: Exchange }> {
    const credential = spec.credential === undefined ? this.options.credential : spec.credential;
    const url = this.url(spec.path, spec.query);
    const headers: Record<string, string> = { ...this.options.headers, ...spec.headers };
    if (credential) headers.authorization = `Bearer ${credential.value}`;
    for (let attempt = 0; ; attempt++) {
      refuseWhenStopped();
      const exchange = this.describe(spec.method, url, headers, undefined, credential);
      const started = performance.now();
      const deadline = new Deadline(this.options.timeoutMs);
      let answer: Answer | undefined;
      try {
        answer = await this.request(spec.method, url, headers, undefined, deadline.signal);
        deadline.restart(this.options.timeoutMs * STREAMED_BODY_TIMEOUTS);
        exchange.durationMs = Math.round(performance.now() - started);
        exchange.status = answer.status;
        exchange.responseHeaders = this.options.redactor.value(answer.headers);
        exchange.responseExcerpt = "(streamed)";
        if (answer.status === 429) {
          discard(answer.body);
          deadline.release();
          await this.waitOut429(answer, attempt, exchange, log);
          continue;
        }
        this.record(exchange, log);
        return { status: answer.status, headers: answer.headers, body: this.streamedBody(answer, exchange, deadline), exchange };
      } catch (err) {
        deadline.release();
        if (err instanceof NetworkError) throw err;
        throw this.lost(err, exchange, started, answer, log, deadline.ms);
      }
    }
  }

  /** The body as the reader gets it: its failures become NetworkErrors (or the check's abort), and closing it releases the connection. */
  private streamedBody(answer: Answer, exchange: Exchange, deadline: Deadline): NodeJS.ReadableStream {
    const out = new PassThrough();
    answer.body.on("error", (err) => {
      if (deadline.checkAborted) {
        out.destroy(deadline.checkReason as Error);
        return;
      }
      exchange.error = describeNetworkError(err, deadline.ms, true);
      out.destroy(new NetworkError(`${exchange.method} ${exchange.url}: ${exchange.error}`, exchange));
    });
    out.on("close", () => {
      deadline.release();
      if (!answer.body.destroyed) discard(answer.body);
    });
    return answer.body.pipe(out);
  }

  private async request(method: string, url: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal): Promise<Answer> {
    if (signal.aborted) throw signal.reason;
    const res = await request(url, {
      method: method as Dispatcher.HttpMethod,
      headers,
      body,
      dispatcher: this.agent,
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
      signal,
    });
    return { status: res.statusCode, headers: flattenHeaders(res.headers), body: res.body };
  }

  /** Waits as Retry-After asks (bounded), or gives up with RateLimited once the budget is spent. */
  private async waitOut429(answer: Answer, attempt: number, exchange: Exchange, log: Exchange[] | undefined): Promise<void> {
    if (attempt >= MAX_429_RETRIES) {
      this.record(exchange, log);
      throw new RateLimited(`rate limited: ${exchange.method} ${exchange.url} still answered 429 after ${attempt + 1} attempts (Retry-After honoured); no verdict`, exchange);
    }
    await sleep(Math.min(retryAfterMs(answer.headers["retry-after"], attempt), this.options.timeoutMs), checkScope()?.refuse);
  }

  private lost(err: unknown, exchange: Exchange, started: number, answer: Answer | undefined, log: Exchange[] | undefined, timeoutMs: number): unknown {
    if (answer) discard(answer.body);
    exchange.durationMs = Math.round(performance.now() - started);
    if (answer) exchange.status = answer.status;
    // The check's own abort (its time limit, Ctrl-C) is not the server's doing: passed on as it is.
    const scope = checkScope();
    if (scope?.abort.aborted) {
      exchange.error = `aborted in flight: ${(scope.abort.reason as Error)?.message ?? "the check was stopped"}`;
      if (exchange.method !== "GET") scope.abortedWrites.push(`${exchange.method} ${exchange.url}`);
      this.record(exchange, log);
      return scope.abort.reason;
    }
    exchange.error = describeNetworkError(err, timeoutMs, answer !== undefined);
    this.record(exchange, log);
    return new NetworkError(`${exchange.method} ${exchange.url}: ${exchange.error}`, exchange);
  }

  private record(exchange: Exchange, log: Exchange[] | undefined, answer?: FullAnswer): void {
    log?.push(exchange);
    this.options.observe?.(exchange, answer);
  }

  private describe(method: string, url: string, headers: Record<string, string>, body: string | undefined, credential: Credential | null | undefined): Exchange {
    const r = this.options.redactor;
    // Real keys (configured tokens, JWTs) are redacted; a credential the suite made up to be
    // refused (empty, `Basic`, an unknown key) is what the check tested, and is shown.
    const shownHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) shownHeaders[k] = r.text(credential && v.includes(credential.value) ? v.split(credential.value).join("[REDACTED]") : v);
    return {
      method,
      url: r.text(url),
      requestHeaders: shownHeaders,
      requestBody: body === undefined ? undefined : r.text(body).slice(0, EXCERPT),
      durationMs: 0,
      curl: curlLine(method, r.text(url), headers, body === undefined ? undefined : r.text(body), credential ?? undefined, (s) => r.text(s)),
    };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/**
 * A shell line that replays the request; the credential appears only as its env var. Other
 * header values pass through `redact` (another configured token, a JWT); a made-up credential
 * stays as sent, so that the line reproduces what the check tested.
 */
export function curlLine(method: string, url: string, headers: Record<string, string>, body: string | undefined, credential?: Credential, redact: (s: string) => string = (s) => s): string {
  const parts = ["curl -sS -i", "-X", method, shq(url)];
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === "accept") continue;
    if (credential && v.includes(credential.value)) {
      parts.push("-H", `"${k}: ${v.split(credential.value).join("$" + credential.envVar).replace(/"/g, '\\"')}"`);
      continue;
    }
    parts.push("-H", shq(`${k}: ${redact(v)}`));
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

/** Node's codes for a certificate chain that does not verify (self-signed, unknown CA, expired, another name). */
const UNTRUSTED_CERTIFICATE = new Set(["DEPTH_ZERO_SELF_SIGNED_CERT", "SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "UNABLE_TO_GET_ISSUER_CERT", "CERT_HAS_EXPIRED", "CERT_NOT_YET_VALID", "ERR_TLS_CERT_ALTNAME_INVALID", "CERT_UNTRUSTED"]);

function describeNetworkError(err: unknown, timeoutMs: number, answered: boolean): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const timedOut = e?.name === "TimeoutError" || e?.name === "AbortError" || e?.code === "UND_ERR_HEADERS_TIMEOUT" || e?.code === "UND_ERR_BODY_TIMEOUT" || e?.code === "UND_ERR_ABORTED";
  if (timedOut) return answered ? `the body did not arrive whole within ${timeoutMs} ms` : `no answer within ${timeoutMs} ms`;
  if (err instanceof BodyTooLarge) return err.message;
  const code = e?.cause?.code ?? e?.code;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  if (code === "ECONNRESET") return answered ? "the connection was reset during the body" : "the connection was reset";
  if (code === "UND_ERR_SOCKET" || e?.message === "terminated")
    return answered ? "the connection closed before the body was complete" : "the connection closed without an answer";
  if (code === "UND_ERR_RES_CONTENT_LENGTH_MISMATCH") return "the body did not match its Content-Length";
  if (code && UNTRUSTED_CERTIFICATE.has(code)) return `TLS: the server's certificate is not trusted (${e?.cause?.message ?? e?.message})`;
  if (code === "ERR_SSL_WRONG_VERSION_NUMBER" || code === "ERR_SSL_PACKET_LENGTH_TOO_LONG") return `TLS: the server does not speak TLS on this port (${/wrong version number|packet length too long/.exec(e?.cause?.message ?? e?.message ?? "")?.[0] ?? code})`;
  return e?.cause?.message ?? e?.message ?? String(err);
}

/** Drops a body not read on; undici reports a destroyed body as an error, which nobody is left to hear. */
function discard(body: Answer["body"]): void {
  body.on("error", () => undefined);
  body.destroy();
}

/** A body bigger than the client reads; the message says so without holding the body. */
class BodyTooLarge extends Error {
  constructor(limit: number) {
    const size = limit >= 1024 * 1024 ? `${Math.round(limit / 1024 / 1024)} MiB` : `${Math.round(limit / 1024)} KiB`;
    super(`the body is larger than ${size}, the most the tester reads: not read on (no verdict)`);
  }
}

async function readCapped(answer: Answer, limit: number): Promise<string> {
  if (Number(answer.headers["content-length"]) > limit) throw new BodyTooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer.body) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * One exchange's abort signal: its time bound, and the running check's abort (its time limit, or a
 * stop whose drain ran out).
 * Released when the exchange ends, so that a check of thousands of requests does not pile up
 * listeners on its signal.
 */
class Deadline {
  private readonly controller = new AbortController();
  private readonly check = checkScope()?.abort;
  private timer: NodeJS.Timeout | undefined;
  private readonly onCheckAbort = () => this.controller.abort(this.check?.reason);

  constructor(public ms: number) {
    this.restart(ms);
    if (this.check?.aborted) this.onCheckAbort();
    else this.check?.addEventListener("abort", this.onCheckAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get checkAborted(): boolean {
    return this.check?.aborted ?? false;
  }

  get checkReason(): unknown {
    return this.check?.reason;
  }

  /** A new bound from now (a streamed body's, once its headers are in). */
  restart(ms: number): void {
    clearTimeout(this.timer);
    this.ms = ms;
    this.timer = setTimeout(() => this.controller.abort(new DOMException(`no answer within ${ms} ms`, "TimeoutError")), ms);
  }

  release(): void {
    clearTimeout(this.timer);
    this.check?.removeEventListener("abort", this.onCheckAbort);
  }
}

/** A stopped check sends nothing more (what it has in flight may still finish). */
function refuseWhenStopped(): void {
  const refuse = checkScope()?.refuse;
  if (refuse?.aborted) throw refuse.reason;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    if (signal?.aborted) done();
    else signal?.addEventListener("abort", done, { once: true });
  });
}
