import { PassThrough } from "node:stream";
import { type Answer, describeNetworkError, discard, parseJson } from "./http-answer.js";
import type { FullAnswer } from "../model/exchange.js";
import type { Deadline } from "./http-timing.js";
import { type Exchange, NetworkError } from "./exchange.js";

/** The head of a streamed body its watchers are given (the input-class tally learns the stored values of an export from it). */
const STREAM_HEAD_BYTES = 1 << 20;

/** Told a streamed body's head (up to STREAM_HEAD_BYTES) once it ends or is let go, and whether that head is the whole body. */
export type StreamWatcher = (exchange: Exchange, head: string, whole: boolean) => void;

/** The body as the reader gets it: its failures become NetworkErrors (or the check's abort), and closing it releases the connection. */
export function streamedBody(answer: Answer, exchange: Exchange, deadline: Deadline, watchers: ReadonlySet<StreamWatcher>): NodeJS.ReadableStream {
  const out = new PassThrough();
  answer.body.on("error", (err) => {
    if (deadline.checkAborted) {
      out.destroy(deadline.checkReason as Error);
      return;
    }
    exchange.error = describeNetworkError(err, deadline.ms, true);
    out.destroy(new NetworkError(`${exchange.method} ${exchange.url}: ${exchange.error}`, exchange));
  });
  const head: Buffer[] = [];
  let bytes = 0;
  let ended = false;
  if (watchers.size)
    answer.body.on("data", (chunk: Buffer) => {
      if (bytes < STREAM_HEAD_BYTES) head.push(chunk);
      bytes += chunk.length;
    });
  answer.body.on("end", () => {
    ended = true;
  });
  out.on("close", () => {
    const whole = ended && bytes <= STREAM_HEAD_BYTES;
    if (head.length) for (const watcher of watchers) watcher(exchange, Buffer.concat(head).toString("utf8"), whole);
    deadline.release();
    if (!answer.body.destroyed) discard(answer.body);
  });
  return answer.body.pipe(out);
}

/** A streamed body its watcher was given whole, as the door's watchers read an answer (parsed where it is JSON); undefined before any answer. */
export function wholeStreamedAnswer(exchange: Exchange, head: string): FullAnswer | undefined {
  if (exchange.status === undefined) return undefined;
  const contentType = Object.entries(exchange.responseHeaders ?? {}).find(([k]) => k.toLowerCase() === "content-type")?.[1];
  const parsed = parseJson(head, contentType);
  return { method: exchange.method, url: new URL(exchange.url), status: exchange.status, text: head, body: parsed.value, isJson: parsed.ok };
}
