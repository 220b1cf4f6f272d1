import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import type { Behaviour } from "./behaviour.js";
import type { Fault } from "./faults.js";
import type { Store, User } from "./store.js";

/** A request error the handler decided on: always a 4xx JSON body, never a crash. */
export class HttpError extends Error {
  constructor(readonly status: number, message: string, readonly extra: Record<string, unknown> = {}) {
    super(message);
  }
}

export interface Req {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: any;
  user: User;
  raw: IncomingMessage;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A streamed body (the audit export); `body` is then unused. */
  stream?: Readable;
  /** A body that is not JSON (a web page); `headers` gives its content type. */
  text?: string;
}

export interface ReferenceOptions {
  /** The decide-then-apply window of E11 upsert, so that concurrent writers really race. */
  upsertDelayMs: number;
  /** Milliseconds every request waits before it is handled: a remote server's round trip. */
  latencyMs: number;
  /** Documented response variants the suite must accept (see variants.ts). */
  variants: Set<string>;
}

export interface App {
  store: Store;
  b: Behaviour;
  faults: Fault[];
  options: ReferenceOptions;
}

export type Handler = (req: Req, app: App) => Reply | Promise<Reply>;

export interface Route {
  /** The spec section it serves, e.g. "E8"; fault response transforms key on it. */
  spec: string;
  method: string;
  /** A path template as the operation table writes it: `/api/v1/deployments/{deploymentId}`. */
  pattern: string;
  handler: Handler;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
