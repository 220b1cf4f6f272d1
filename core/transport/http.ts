import { Agent, type Dispatcher, EnvHttpProxyAgent, request } from "undici";
import { checkScope } from "./check-scope.js";
import { describeExchange, excerpt } from "./exchange-shown.js";
import { type Answer, describeNetworkError, discard, endedUnanswered, flattenHeaders, parseJson, readCapped } from "./http-answer.js";
import type { HttpClientOptions } from "./http-options.js";
import { streamedBody, type StreamWatcher } from "./http-stream.js";
import { Deadline, type ExchangeSignal, IDEMPOTENT, pacerFor, type RatePacer, retryAfterMs, sleep, TRANSIENT, type TransientCounts } from "./http-timing.js";
import { CUT_OFF } from "../model/exchange.js";
import { heldBody, type Together } from "./together.js";
import { READ_METHODS } from "../api/methods.js";
import { DoorRefused, type Exchange, type FullAnswer, NetworkError, RateLimited, type RequestSpec, type Response, TransientWrite } from "./exchange.js";

export { curlLine } from "./curl.js";
export { retryAfterMs } from "./http-timing.js";
export type { TransientCounts } from "./http-timing.js";

export type { Credential } from "./curl.js";
export type { Exchange, FullAnswer, RequestSpec, Response } from "./exchange.js";
export type { HttpClientOptions } from "./http-options.js";
export { DoorRefused, NetworkError, RateLimited, TransientWrite } from "./exchange.js";

/** The excerpt of a body read as a stream, which the client never holds. */
export const STREAMED = "(streamed)";
/**
 * The excerpt is redacted from this much of the body, not all of it (a body of megabytes would
 * be copied once per secret): far past the excerpt, so that a secret cut by it is still whole here.
 */
const REDACTION_WINDOW = 64 * 1024;
/** The most of a body the HAR keeps whole: the redaction window, so that what it keeps is redacted whole. */
const WHOLE_BODY_CHARS = REDACTION_WINDOW;
const MAX_TRANSIENT_RETRIES = 4;
/** The most requests one race holds at its barrier (core/transport/together.ts): E11's race sends thirteen. */
const RACE_CONNECTIONS = 16;
/** A body past this size is not read on: the spec sets no limit, so it is the tester's, and errored. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** A streamed body may take this many request timeouts in all (60 s at the default 10 s: an example check's own limit). */
const STREAMED_BODY_TIMEOUTS = 6;

/** Who sent a request that is outside any check: the phase of the run (preflight, plan, discovery, cleanup, coverage...). */
export type Phase = string;

/**
 * The run's one door (core/run/door.ts opens it): every request of every phase goes through one
 * instance, which paces it, waits out 429s, redacts what it records, hands every exchange to the
 * watchers (the HAR, the invariants, the ledger), and refuses what the run promised not to send.
 * Nothing else in bin/, core/ or suites/ opens a connection (test/door.test.ts).
 *
 * Redirects are not followed: an API that answers 3xx is judged on that answer (preflight tells
 * the user when the base URL itself redirects), so a redirect loop costs one request.
 */
export class HttpClient {
  readonly baseUrl: string;
  private readonly agent: Dispatcher;
  private readonly raceAgent: Dispatcher;
  private readonly pacer: RatePacer | undefined;
  private readonly watchers = new Set<(exchange: Exchange, answer?: FullAnswer) => void>();
  private readonly streamWatchers = new Set<StreamWatcher>();
  private readonly beforeWrites = new Set<(method: string, url: URL) => Promise<void>>();
  /** Who is sending when no check is: set by each phase of the run. */
  phase: Phase = "run";
  /** Every request refused at the door, `<caller>: <method> <url>: <why>`; the run exits 1 when there is one. */
  readonly refused: { caller: string; line: string }[] = [];
  /** What the run's report shows once: every transient answer this client waited out. */
  readonly transients: TransientCounts = { retried: {}, gaveUp: 0, readBack: 0, notSentAgain: 0 };
  constructor(readonly options: HttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.pacer = options.rateLimit ? pacerFor(new URL(this.baseUrl).origin, options.rateLimit) : undefined;
    const pool = { connections: 16, keepAliveTimeout: 10_000 };
    this.agent = options.proxy ? new EnvHttpProxyAgent(pool) : new Agent(pool);
    // A race's requests (spec.together) each need a connection of their own at the same moment:
    // from the shared pool they would wait for the other checks' requests to finish.
    const racePool = { connections: RACE_CONNECTIONS, keepAliveTimeout: 10_000 };
    this.raceAgent = options.proxy ? new EnvHttpProxyAgent(racePool) : new Agent(racePool);
  }

  /** The request's URL: parsed once, its text sent and shown, the URL itself handed to the observer. */
  private target(path: string, query?: RequestSpec["query"]): URL {
    const u = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u;
  }

  /** Every exchange from now on, as recorded (redacted), with the whole answer for those read whole; the returned function stops it. */
  watch(watcher: (exchange: Exchange, answer?: FullAnswer) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** Every streamed body from now on, its head (up to STREAM_HEAD_BYTES) once it ends or is let go; the returned function stops it. */
  watchStreamed(watcher: StreamWatcher): () => void {
    this.streamWatchers.add(watcher);
    return () => this.streamWatchers.delete(watcher);
  }

  /** Called before each write is sent (the ledger reads what a write will change: core/ledger/door-ledger.ts); the returned function stops it. */
  beforeWrite(hook: (method: string, url: URL) => Promise<void>): () => void {
    this.beforeWrites.add(hook);
    return () => this.beforeWrites.delete(hook);
  }

  /** Refuses, before anything is sent, a request the run's guard forbids: the caller is named and the refusal kept. */
  private admit(method: string, target: URL, keyless = false): void {
    const why = this.options.guard?.(method, target, keyless);
    if (why === undefined) return;
    const caller = checkScope()?.id ?? this.phase;
    const line = `${method} ${this.options.redactor.text(target.pathname)}: ${why}`;
    this.refused.push({ caller, line });
    throw new DoorRefused(`refused at the door (a bug of the tool's, not the server's): ${caller} tried to send ${line}`);
  }

  /** Sent on purpose without the run's key (a run given none sends every request so, and none on purpose). */
  private keyless(spec: RequestSpec): boolean {
    return spec.credential === null && this.options.credential !== undefined;
  }

  async send(spec: RequestSpec, log?: Exchange[]): Promise<Response> {
    // A request of a race (spec.together) holds its last byte for the others on its first attempt only: a retry is sent alone.
    const party = spec.together?.party();
    const answered = this.attempts(spec, log, party);
    // A party that fails before its last byte (refused at the door, lost) does not keep the others waiting.
    return party ? answered.finally(party.arrive) : answered;
  }

  private async attempts(spec: RequestSpec, log: Exchange[] | undefined, party: ReturnType<Together["party"]> | undefined): Promise<Response> {
    const credential = spec.credential === undefined ? this.options.credential : spec.credential;
    const target = this.target(spec.path, spec.query);
    this.admit(spec.method, target, this.keyless(spec));
    if (!READ_METHODS.includes(spec.method)) for (const hook of this.beforeWrites) await hook(spec.method, target);
    const url = target.toString();
    const headers: Record<string, string> = { accept: "application/json", ...this.options.headers, ...spec.headers };
    const bodyText = spec.rawBody ?? (spec.body === undefined ? undefined : JSON.stringify(spec.body));
    if (bodyText !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) headers["content-type"] = "application/json";
    if (credential && !Object.keys(headers).some((h) => h.toLowerCase() === "authorization")) headers.authorization = `Bearer ${credential.value}`;

    const { timeoutMs } = this.options;
    let resent = false;
    for (let attempt = 0; ; attempt++) {
      await this.paced();
      const started = performance.now();
      const exchange = describeExchange(this.options.redactor, spec.method, url, headers, bodyText, credential);
      // One deadline for the whole exchange: a body that drips in slowly is cut off too.
      const deadline = new Deadline(timeoutMs);
      let answer: Answer | undefined;
      try {
        const held = party && attempt === 0 && bodyText !== undefined && bodyText.length > 1;
        answer = held
          ? await this.request(
              spec.method,
              url,
              { ...headers, "content-length": String(Buffer.byteLength(bodyText)) },
              heldBody(bodyText, party),
              deadline.signal,
              this.raceAgent,
            )
          : await this.request(spec.method, url, headers, bodyText, deadline.signal);
        const text = await readCapped(answer, this.options.maxBodyBytes ?? MAX_BODY_BYTES);
        exchange.durationMs = Math.round(performance.now() - started);
        exchange.status = answer.status;
        exchange.responseHeaders = this.options.redactor.values(answer.headers);
        const redacted = this.options.redactor.text(text.slice(0, REDACTION_WINDOW));
        exchange.responseExcerpt = excerpt(redacted);
        // Not enumerable: report.json and copies of the exchange keep the excerpts only; the HAR reads it off the exchange itself.
        if (this.options.wholeBodies)
          Object.defineProperty(exchange, "whole", {
            enumerable: false,
            value: {
              requestBody: bodyText === undefined || bodyText.length > WHOLE_BODY_CHARS ? undefined : this.options.redactor.text(bodyText),
              responseBody: text.length > WHOLE_BODY_CHARS ? undefined : redacted,
              responseChars: text.length,
            },
          });
        if (TRANSIENT.has(answer.status)) {
          if (!(await this.retryable(spec, headers))) throw this.notSentAgain(answer, exchange, log, spec.readBack !== undefined);
          await this.waitOut(answer, attempt, exchange, log);
          continue;
        }
        const parsed = parseJson(text, answer.headers["content-type"]);
        this.record(exchange, log, {
          method: spec.method,
          url: target,
          requestBody: bodyText,
          status: answer.status,
          text,
          body: parsed.value,
          isJson: parsed.ok,
        });
        return { status: answer.status, headers: answer.headers, text, body: parsed.value, isJson: parsed.ok, exchange };
      } catch (err) {
        if (err instanceof NetworkError) throw err;
        if (!resent && this.sendAgain(err, spec.method, answer)) {
          resent = true;
          continue;
        }
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
  async stream(
    spec: RequestSpec,
    log?: Exchange[],
  ): Promise<{ status: number; headers: Record<string, string>; body: NodeJS.ReadableStream; exchange: Exchange }> {
    const credential = spec.credential === undefined ? this.options.credential : spec.credential;
    const target = this.target(spec.path, spec.query);
    this.admit(spec.method, target, this.keyless(spec));
    const url = target.toString();
    const headers: Record<string, string> = { ...this.options.headers, ...spec.headers };
    if (credential) headers.authorization = `Bearer ${credential.value}`;
    let resent = false;
    for (let attempt = 0; ; attempt++) {
      await this.paced();
      const exchange = describeExchange(this.options.redactor, spec.method, url, headers, undefined, credential);
      const started = performance.now();
      const deadline = new Deadline(this.options.timeoutMs);
      let answer: Answer | undefined;
      try {
        answer = await this.request(spec.method, url, headers, undefined, deadline.signal);
        deadline.restart(this.options.timeoutMs * STREAMED_BODY_TIMEOUTS);
        exchange.durationMs = Math.round(performance.now() - started);
        exchange.status = answer.status;
        exchange.responseHeaders = this.options.redactor.values(answer.headers);
        exchange.responseExcerpt = STREAMED;
        if (TRANSIENT.has(answer.status) && (await this.retryable(spec, headers))) {
          discard(answer.body);
          deadline.release();
          await this.waitOut(answer, attempt, exchange, log);
          continue;
        }
        this.record(exchange, log);
        return { status: answer.status, headers: answer.headers, body: streamedBody(answer, exchange, deadline, this.streamWatchers), exchange };
      } catch (err) {
        deadline.release();
        if (err instanceof NetworkError) throw err;
        if (!resent && this.sendAgain(err, spec.method, answer)) {
          resent = true;
          continue;
        }
        throw this.lost(err, exchange, started, answer, log, deadline.ms);
      }
    }
  }

  /**
   * Every attempt waits for its --rate-limit slot (send, stream and their 429 retries alike),
   * before its deadline starts: a queue behind the pace is not the server's slowness.
   */
  private async paced(): Promise<void> {
    refuseWhenStopped();
    if (!this.pacer) return;
    await this.pacer.slot(checkScope()?.refuse);
    refuseWhenStopped();
  }

  private async request(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | AsyncIterable<Buffer> | undefined,
    signal: ExchangeSignal,
    dispatcher = this.agent,
  ): Promise<Answer> {
    if (signal.aborted) throw signal.reason;
    const res = await request(url, {
      method: method as Dispatcher.HttpMethod,
      headers,
      // undici sends an async iterable chunk by chunk (writeIterable) though its types leave it out.
      body: body as string | undefined,
      dispatcher,
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
      signal,
    });
    return { status: res.statusCode, headers: flattenHeaders(res.headers), body: res.body };
  }

  /**
   * Whether a transient answer to this request may be retried: always for an idempotent method or
   * a stranger's write; a POST or PATCH only once read back as not applied, never blind (a gateway may answer 503 after
   * the server applied it, and a second create is a second object).
   */
  private async retryable(spec: RequestSpec, headers: Record<string, string>): Promise<boolean> {
    if (IDEMPOTENT.has(spec.method)) return true;
    // Sent on purpose with none of the run's keys: no server may apply it, so a second sending
    // changes nothing a conforming server keeps (and one that applied the first has failed already).
    if (this.keyless(spec) && !Object.values(headers).some((v) => this.options.redactor.holdsSecret(v))) return true;
    if (!spec.readBack) return false;
    this.transients.readBack++;
    return !(await spec.readBack());
  }

  /**
   * A POST or PATCH answered 429/503 that is not sent again: the check gets no answer to judge
   * (not verifiable, never a rule's failure), since the write may or may not have been applied.
   */
  private notSentAgain(answer: Answer, exchange: Exchange, log: Exchange[] | undefined, readBack: boolean): TransientWrite {
    this.transients.notSentAgain++;
    this.record(exchange, log);
    const why = readBack ? "the read-back shows it applied or cannot tell" : "no read-back can tell whether it was applied";
    return new TransientWrite(`${exchange.method} ${exchange.url} answered ${answer.status}, not sent again (${why}); no verdict`, exchange);
  }

  /** Waits as Retry-After asks (bounded), or gives up with RateLimited once the budget is spent. */
  private async waitOut(answer: Answer, attempt: number, exchange: Exchange, log: Exchange[] | undefined): Promise<void> {
    if (attempt >= MAX_TRANSIENT_RETRIES) {
      this.transients.gaveUp++;
      this.record(exchange, log);
      throw new RateLimited(
        `rate limited: ${exchange.method} ${exchange.url} still answered ${answer.status} after ${attempt + 1} attempts (Retry-After honoured); no verdict`,
        exchange,
      );
    }
    const status = String(answer.status);
    this.transients.retried[status] = (this.transients.retried[status] ?? 0) + 1;
    await sleep(Math.min(retryAfterMs(answer.headers["retry-after"], attempt), this.options.timeoutMs), checkScope()?.refuse);
  }

  /**
   * Whether a read cut off before any answer (endedUnanswered: most often a kept-alive connection the
   * server closed as it was reused) is sent once more, on another connection: counted with the
   * transient answers, never a verdict. A write is not: it may have reached the server.
   */
  private sendAgain(err: unknown, method: string, answer: Answer | undefined): boolean {
    if (!READ_METHODS.includes(method) || checkScope()?.abort.aborted || !endedUnanswered(err, answer !== undefined)) return false;
    this.transients.retried[CUT_OFF] = (this.transients.retried[CUT_OFF] ?? 0) + 1;
    return true;
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
    for (const watcher of this.watchers) watcher(exchange, answer);
  }

  /**
   * A document the user named by URL (--document), which may live on another host: a GET with
   * none of the run's credentials or headers, redirects followed (at most 5), recorded like any exchange.
   */
  async download(address: string): Promise<string> {
    let url = new URL(address);
    this.admit("GET", url);
    for (let hops = 0; ; hops++) {
      const exchange = describeExchange(this.options.redactor, "GET", this.options.redactor.text(url.toString()), {}, undefined, null);
      const started = performance.now();
      const deadline = new Deadline(this.options.timeoutMs * STREAMED_BODY_TIMEOUTS);
      try {
        const answer = await this.request("GET", url.toString(), {}, undefined, deadline.signal);
        exchange.status = answer.status;
        exchange.durationMs = Math.round(performance.now() - started);
        const location = answer.headers.location;
        if (answer.status >= 300 && answer.status < 400 && location && hops < 5) {
          discard(answer.body);
          this.record(exchange, undefined);
          url = new URL(location, url);
          continue;
        }
        const text = await readCapped(answer, this.options.maxBodyBytes ?? MAX_BODY_BYTES);
        this.record(exchange, undefined);
        if (answer.status < 200 || answer.status >= 300) throw new Error(`answered ${answer.status}`);
        return text;
      } finally {
        deadline.release();
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.agent.close(), this.raceAgent.close()]);
  }
}

/** A stopped check sends nothing more (what it has in flight may still finish). */
function refuseWhenStopped(): void {
  const refuse = checkScope()?.refuse;
  if (refuse?.aborted) throw refuse.reason;
}
