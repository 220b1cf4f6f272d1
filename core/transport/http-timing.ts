/** Time in the HTTP client: the pace of a --rate-limit, a 429's wait, one exchange's deadline. */
import { EventEmitter } from "node:events";
import { checkScope } from "./check-scope.js";

const MAX_429_WAIT_MS = 10_000;

/** Answers that say "not now" (RFC 6585 §4, RFC 9110 §15.6.4): waited out within a bound, never a verdict. */
export const TRANSIENT = new Set([429, 503]);
/** Methods HTTP defines as idempotent (RFC 9110 §9.2.2): safe to send again as they are. */
export const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

export type { TransientCounts } from "../model/exchange.js";

/**
 * Requests leave at most `perSecond` a second, evenly spaced: a tenant behind a gateway that
 * throttles gets a run that never trips it. One pacer per server is shared by every client of the
 * process (discovery, checks, cleanup, preflight), so that the bound holds for the run as a whole.
 */
export class RatePacer {
  private queue: Promise<void> = Promise.resolve();
  /** When the last request actually left: a busy event loop that wakes late must not let several leave at once. */
  private last = -Infinity;
  constructor(readonly perSecond: number) {}

  /** Waits for the next request's slot, in order; a stopped check stops waiting (its caller then sends nothing). */
  slot(signal?: AbortSignal): Promise<void> {
    const mine = this.queue.then(async () => {
      // Until the interval has passed by the clock the bound is measured with: a timer may fire up
      // to a millisecond early (libuv counts whole milliseconds), 22 ms early over 22 intervals.
      const due = this.last + 1000 / this.perSecond;
      for (let wait = due - performance.now(); wait > 0; wait = due - performance.now()) await sleep(Math.ceil(wait), signal);
      this.last = performance.now();
    });
    this.queue = mine.catch(() => undefined);
    return mine;
  }
}

const pacers = new Map<string, RatePacer>();

/** The pacer of `origin` at this rate, shared by every client that talks to it. */
export function pacerFor(origin: string, perSecond: number): RatePacer {
  const key = `${origin} ${perSecond}`;
  let pacer = pacers.get(key);
  if (!pacer) pacers.set(key, (pacer = new RatePacer(perSecond)));
  return pacer;
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

/**
 * What aborts one exchange, as undici takes it: an EventEmitter with `aborted` and `reason` (undici
 * accepts one for an AbortSignal). An AbortController and its EventTarget for every request were
 * a twentieth of the client's time.
 */
export class ExchangeSignal extends EventEmitter {
  aborted = false;
  reason: unknown;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit("abort");
  }
}

/**
 * The exchanges in flight under each check's abort signal, in the order they started: one listener
 * on the signal for all of them, not one added and removed per request (an EventTarget's are slow
 * to add and remove, and a run sends thousands).
 */
const inFlight = new WeakMap<AbortSignal, Set<() => void>>();

function whenAborted(signal: AbortSignal, onAbort: () => void): void {
  let exchanges = inFlight.get(signal);
  if (!exchanges) {
    const all = (exchanges = new Set());
    inFlight.set(signal, all);
    signal.addEventListener("abort", () => all.forEach((f) => f()), { once: true });
  }
  exchanges.add(onAbort);
}

/**
 * One exchange's abort signal: its time bound, and the running check's abort (its time limit, or a
 * stop whose drain ran out).
 * Released when the exchange ends, so that a check of thousands of requests does not pile up
 * exchanges to abort.
 */
export class Deadline {
  readonly signal = new ExchangeSignal();
  private readonly check = checkScope()?.abort;
  private timer: NodeJS.Timeout | undefined;
  private readonly onCheckAbort = () => this.signal.abort(this.check?.reason);

  constructor(public ms: number) {
    this.restart(ms);
    if (this.check?.aborted) this.onCheckAbort();
    else if (this.check) whenAborted(this.check, this.onCheckAbort);
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
    this.timer = setTimeout(() => this.signal.abort(new DOMException(`no answer within ${ms} ms`, "TimeoutError")), ms);
  }

  release(): void {
    clearTimeout(this.timer);
    if (this.check) inFlight.get(this.check)?.delete(this.onCheckAbort);
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
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
