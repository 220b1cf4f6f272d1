import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * What the server sees, counted at the wire: a proxy in front of it that logs each request's
 * method and path before passing it on. Tests of the run's promises count here, never in the
 * tool's own HAR (which would only show what the tool chose to record).
 */
export interface LoggingProxy {
  url: string;
  /** `METHOD /path?query`, one a request, in arrival order. */
  readonly lines: string[];
  /** The requests that are not GET, HEAD or OPTIONS. */
  writes(): string[];
  close(): Promise<void>;
}

export async function startLoggingProxy(target: string): Promise<LoggingProxy> {
  const to = new URL(target);
  const lines: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      lines.push(`${req.method} ${req.url}`);
      const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      upstream.on("error", () => {
        res.statusCode = 502;
        res.end();
      });
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lines,
    writes: () => lines.filter((l) => !/^(GET|HEAD|OPTIONS) /.test(l)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
