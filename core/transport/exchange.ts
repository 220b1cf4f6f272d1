import type { Credential } from "./curl.js";
import type { Together } from "./together.js";
import type { Exchange } from "../model/exchange.js";

// What the door (core/transport/http.ts) takes and gives: a request, and why one did not happen; its exchange and answer as
// checks and reports read them are in core/model/exchange.ts, at the bottom layer, since what a check says names them.
export type { Exchange, FullAnswer, Response } from "../model/exchange.js";

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
  /**
   * A POST or PATCH answered 429 or 503 may have been applied: this reads the state back and says
   * whether it was, true also where it cannot tell. Only a write read back as not applied is sent
   * again; otherwise, and without it, the send ends in RateLimited (no verdict), never a second write.
   */
  readBack?: () => Promise<boolean>;
  /** Sent with the other requests of this barrier so that the server holds them whole at once (core/transport/together.ts). */
  together?: Together;
}

/** The tester could not talk to the server: never a verdict on the server's conformance. */
export class NetworkError extends Error {
  constructor(
    message: string,
    readonly exchange: Exchange,
  ) {
    super(message);
  }
}

/**
 * A request the run promised never to send (a write in a read-only run, a write outside the plan):
 * refused at the door before it leaves the process. It is a bug of the tool's, never a verdict on
 * the server: the calling check is errored with its name, and the run exits 1.
 */
export class DoorRefused extends Error {}

/** The server still answered 429 or 503 after the retry budget: not a verdict, the check is errored. */
export class RateLimited extends NetworkError {}

/**
 * A POST or PATCH answered 429 or 503 that the run does not send again (it may have been applied,
 * and nothing read back tells it was not): the rule is not verifiable on this run, never a failure.
 */
export class TransientWrite extends RateLimited {}
