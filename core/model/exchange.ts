// An exchange with the server as a check, an invariant and a report read it: plain data, at the bottom layer, so that what a
// check says (core/model/) names it without reaching up into the transport that makes it (core/transport/exchange.ts).

/** One request and its answer, as a report shows it: redacted, the body cut to an excerpt. */
export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseExcerpt?: string;
  /** With `wholeBodies` (the HAR): the bodies whole, redacted, up to WHOLE_BODY_CHARS; a longer one is left out and its length given. */
  whole?: { requestBody?: string; responseBody?: string; responseChars: number };
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

/** The key of `retried` that counts reads sent once more because their connection ended before any answer. */
export const CUT_OFF = "cut off";

/** The transient answers a run met and waited out, shown once in its report (never a rule's verdict). */
export interface TransientCounts {
  /** Answers waited out and retried, by status ("429", "503"), and reads sent again after a connection ended unanswered (CUT_OFF). */
  retried: Record<string, number>;
  /** Requests still answered so after the retry budget: their checks are errored, no verdict. */
  gaveUp: number;
  /** POST or PATCH answered so whose effect was read back before any retry. */
  readBack: number;
  /** POST or PATCH answered so and not sent again (it may have been applied): their checks are not verifiable. */
  notSentAgain: number;
}
