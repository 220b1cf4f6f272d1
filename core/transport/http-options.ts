import type { Credential } from "./curl.js";
import type { Exchange, FullAnswer } from "./exchange.js";
import type { Redactor } from "./redact.js";

/** What the door (core/transport/http.ts, HttpClient) is opened with: the server, the run's credentials and promises, and who watches. */
export interface HttpClientOptions {
  baseUrl: string;
  /** Per request: until the answer is read whole (send) or its headers arrive (stream); also the longest wait between two chunks of a body. */
  timeoutMs: number;
  redactor: Redactor;
  /** Credentials whose values are replaced in reports; the first one is the default. */
  credential?: Credential;
  /** Every exchange as reports show it, and the whole answer for those read whole (core/run/invariants.ts reads it, keeps nothing). */
  observe?: (exchange: Exchange, answer?: FullAnswer) => void;
  maxBodyBytes?: number;
  /** The run's bound on the pages of one list walk (--max-pages), read by core/transport/pagination.ts through Api. */
  maxPages?: number;
  /** Sent on every request (--header); a request's own headers win. */
  headers?: Record<string, string>;
  /** Go through HTTPS_PROXY / HTTP_PROXY unless NO_PROXY exempts the host (off for the bundled reference). */
  proxy?: boolean;
  /** Keep each exchange's bodies whole (up to the client's redaction window) beside the excerpts: the HAR reporter asks for them. */
  wholeBodies?: boolean;
  /** --rate-limit: the most requests a second to this server, every attempt counted (a 429's retry too), shared with every client of the process. */
  rateLimit?: number;
  /** The run's promises (core/run/door.ts): why this request may not leave the process, or undefined to send it; `keyless`: sent on purpose without the run's key. */
  guard?: (method: string, url: URL, keyless: boolean) => string | undefined;
}
