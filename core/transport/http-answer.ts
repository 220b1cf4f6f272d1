/** Reading an answer: its headers, its body within a cap, its JSON, and what a lost exchange says. */
import { finished } from "node:stream";
import type { Dispatcher } from "undici";

/** What came back before the body was read. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Dispatcher.ResponseData["body"];
}

export function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

export function parseJson(text: string, contentType: string | undefined): { ok: boolean; value: any } {
  // Not text.trim(): that copies every answer whole to find its first character.
  if (!/\S/.test(text)) return { ok: false, value: undefined };
  if (contentType && !/json/i.test(contentType) && !/^\s*[[{]/.test(text)) return { ok: false, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, value: undefined };
  }
}

/** Node's codes for a certificate chain that does not verify (self-signed, unknown CA, expired, another name). */
const UNTRUSTED_CERTIFICATE = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_GET_ISSUER_CERT",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "CERT_UNTRUSTED",
]);

export function describeNetworkError(err: unknown, timeoutMs: number, answered: boolean): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const timedOut =
    e?.name === "TimeoutError" ||
    e?.name === "AbortError" ||
    e?.code === "UND_ERR_HEADERS_TIMEOUT" ||
    e?.code === "UND_ERR_BODY_TIMEOUT" ||
    e?.code === "UND_ERR_ABORTED";
  if (timedOut) return answered ? `the body did not arrive whole within ${timeoutMs} ms` : `no answer within ${timeoutMs} ms`;
  if (err instanceof BodyTooLarge) return err.message;
  const code = e?.cause?.code ?? e?.code;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  if (code === "ECONNRESET") return answered ? "the connection was reset during the body" : "the connection was reset";
  if (code === "UND_ERR_SOCKET" || e?.message === "terminated")
    return answered ? "the connection closed before the body was complete" : "the connection closed without an answer";
  if (code === "UND_ERR_RES_CONTENT_LENGTH_MISMATCH") return "the body did not match its Content-Length";
  // Node's own words up to its first ";": Node 24 adds a hint of its own there (--use-system-ca) that
  // the line's hint (NODE_EXTRA_CA_CERTS) already covers; the line reads the same on Node 20, 22 and 24.
  if (code && UNTRUSTED_CERTIFICATE.has(code)) return `TLS: the server's certificate is not trusted (${String(e?.cause?.message ?? e?.message).split(";")[0]})`;
  if (code === "ERR_SSL_WRONG_VERSION_NUMBER" || code === "ERR_SSL_PACKET_LENGTH_TOO_LONG")
    return `TLS: the server does not speak TLS on this port (${/wrong version number|packet length too long/.exec(e?.cause?.message ?? e?.message ?? "")?.[0] ?? code})`;
  return e?.cause?.message ?? e?.message ?? String(err);
}

/**
 * A connection that ended before any answer came: reset, or closed by the other side. On a kept-alive
 * connection this is the known race of HTTP/1.1 (the server closes the idle connection as the client
 * sends on it: RFC 9112, section 9.3.1), most of all on a busy machine, where the client's keep-alive
 * timer runs late; nothing was answered, so a read may be sent again.
 */
export function endedUnanswered(err: unknown, answered: boolean): boolean {
  const e = err as { code?: string; message?: string; cause?: { code?: string } };
  const code = e?.cause?.code ?? e?.code;
  return !answered && (code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET" || e?.message === "terminated");
}

/** Drops a body not read on; undici reports a destroyed body as an error, which nobody is left to hear. */
export function discard(body: Answer["body"]): void {
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

export function readCapped(answer: Answer, limit: number): Promise<string> {
  if (Number(answer.headers["content-length"]) > limit) return Promise.reject(new BodyTooLarge(limit));
  // Read by its events, not `for await`: an async iterator for each answer was most of the time
  // spent reading answers. `finished` ends it as the iterator did: at the end, or with the
  // stream's error (an abort, a connection lost mid-body, a premature close).
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    answer.body.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else {
        reject(new BodyTooLarge(limit));
        answer.body.destroy();
      }
    });
    finished(answer.body, (err) => {
      if (err) reject(err);
      // Most answers come in one chunk: read as it is, not copied first.
      else resolve((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)).toString("utf8"));
    });
  });
}
