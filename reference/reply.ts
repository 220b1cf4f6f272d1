import type { Readable } from "node:stream";

/** What a handler of the reference answers: a status and a JSON, text or streamed body. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A streamed body (the audit export); `body` is then unused. */
  stream?: Readable;
  /** A body that is not JSON (a web page); `headers` gives its content type. */
  text?: string;
}
