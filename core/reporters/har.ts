/**
 * HAR 1.2 (the HTTP Archive format browser devtools and HAR viewers open) of every exchange of a
 * run, discovery and cleanup included. Exchanges arrive redacted from the HTTP client, bodies
 * whole up to its cap (64 KiB); a longer body is left out, never cut into text that no longer
 * parses, and HAR's own `comment` says so.
 */
import { writeFileSync } from "node:fs";
import { type Exchange, STREAMED } from "../transport/http.js";

export class HarRecorder {
  private readonly entries: object[] = [];

  record(e: Exchange): void {
    const url = new URL(e.url);
    const mimeType = (headers?: Record<string, string>) => header(headers, "content-type") ?? "";
    const requestMime = mimeType(e.requestHeaders) || "application/json";
    this.entries.push({
      startedDateTime: new Date(Date.now() - e.durationMs).toISOString(),
      time: e.durationMs,
      request: {
        method: e.method,
        url: e.url,
        httpVersion: "HTTP/1.1",
        cookies: [],
        headers: pairs(e.requestHeaders),
        queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
        ...(e.requestBody !== undefined
          ? { postData: { mimeType: requestMime, ...bodyText(e.whole ? e.whole.requestBody : e.requestBody, e.requestBody.length) } }
          : {}),
        headersSize: -1,
        bodySize: e.requestBody !== undefined ? Buffer.byteLength(e.requestBody) : 0,
      },
      response: {
        // HAR's convention for a request that got no answer: status 0, the error as its text.
        status: e.status ?? 0,
        statusText: e.error ?? "",
        httpVersion: "HTTP/1.1",
        cookies: [],
        headers: pairs(e.responseHeaders ?? {}),
        content: {
          size: e.whole?.responseChars ?? (e.responseExcerpt !== undefined ? Buffer.byteLength(e.responseExcerpt) : 0),
          mimeType: mimeType(e.responseHeaders),
          ...responseText(e),
        },
        redirectURL: header(e.responseHeaders, "location") ?? "",
        headersSize: -1,
        bodySize: -1,
        ...(e.error ? { _error: e.error } : {}),
      },
      cache: {},
      timings: { send: 0, wait: e.durationMs, receive: 0 },
    });
  }

  har(creator: { name: string; version: string }): object {
    return { log: { version: "1.2", creator, pages: [], entries: this.entries } };
  }

  write(file: string, creator: { name: string; version: string }): void {
    writeFileSync(file, JSON.stringify(this.har(creator)) + "\n");
  }
}

/** A body whole, or none and a comment saying why: a text cut in the middle would read as broken JSON. */
const bodyText = (whole: string | undefined, chars: number) =>
  whole !== undefined ? { text: whole } : { comment: `body of ${chars} characters left out: longer than the 64 KiB the HAR keeps whole` };

/** The answer's text: whole where the client kept it; a streamed body (the audit export) is read as a stream and never kept. */
function responseText(e: Exchange): { text?: string; comment?: string } {
  if (e.whole) return bodyText(e.whole.responseBody, e.whole.responseChars);
  if (e.responseExcerpt === STREAMED) return { comment: "streamed body: read as a stream, not kept" };
  return e.responseExcerpt !== undefined ? { text: e.responseExcerpt } : {};
}

const pairs = (h: Record<string, string>) => Object.entries(h).map(([name, value]) => ({ name, value: String(value) }));
const header = (h: Record<string, string> | undefined, name: string) => Object.entries(h ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
