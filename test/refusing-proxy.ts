import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunSettings } from "../core/api/settings.js";
import { startReference } from "../reference/server.js";
import { settingsFor } from "./reference-run.js";

type Refusal = { status: number; body: unknown } | undefined;

/** What a proxy changes in what passes through: a request's body on its way in, an answer's on its way out. */
export interface Rewrites {
  request?: (req: IncomingMessage, url: URL, body: Buffer) => Buffer;
  answer?: (req: IncomingMessage, url: URL, body: Buffer) => Buffer;
}

/**
 * The reference behind a proxy that answers the requests `refuse` picks as it says (status and JSON
 * body); the rest pass through, changed as `rewrite` says. `refuse` sees the request's body and may
 * ask the reference itself (`upstream`) before it decides.
 */
export async function refusingProxy(
  refuse: (req: IncomingMessage, url: URL, upstream: string, body: Buffer) => Refusal | Promise<Refusal>,
  over: Partial<RunSettings> = {},
  rewrite: Rewrites = {},
) {
  const ref = await startReference();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://proxy");
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const sent = Buffer.concat(chunks);
    const refusal = await refuse(req, url, ref.url, sent);
    if (refusal) {
      res.writeHead(refusal.status, { "content-type": "application/json" }).end(JSON.stringify(refusal.body));
      return;
    }
    const body = chunks.length ? new Uint8Array(rewrite.request?.(req, url, sent) ?? sent) : undefined;
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== "host" && k !== "content-length")) as Record<string, string>;
    const upstream = await fetch(ref.url + req.url, { method: req.method, headers, body });
    const answer = Buffer.from(await upstream.arrayBuffer());
    const out = rewrite.answer?.(req, url, answer) ?? answer;
    const answerHeaders = Object.fromEntries([...upstream.headers].filter(([k]) => k !== "content-length" && k !== "content-encoding"));
    res.writeHead(upstream.status, answerHeaders).end(out);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    settings: settingsFor(ref, { baseUrl: url, runs: 3, ...over }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await ref.close();
    },
  };
}
