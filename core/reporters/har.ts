/**
 * HAR 1.2 (the HTTP Archive format browser devtools and HAR viewers open) of every exchange of a
 * run, discovery and cleanup included. Exchanges arrive redacted from the HTTP client; bodies are
 * the excerpts the client keeps, so a long answer is cut, never a secret shown.
 */
import { writeFileSync } from "node:fs";
import type { Exchange } from "../http.js";

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
        ...(e.requestBody !== undefined ? { postData: { mimeType: requestMime, text: e.requestBody } } : {}),
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
        content: { size: e.responseExcerpt !== undefined ? Buffer.byteLength(e.responseExcerpt) : 0, mimeType: mimeType(e.responseHeaders), ...(e.responseExcerpt !== undefined ? { text: e.responseExcerpt } : {}) },
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

const pairs = (h: Record<string, string>) => Object.entries(h).map(([name, value]) => ({ name, value: String(value) }));
const header = (h: Record<string, string> | undefined, name: string) => Object.entries(h ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
