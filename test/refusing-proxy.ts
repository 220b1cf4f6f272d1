import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunSettings } from "../core/run/settings.js";
import { startReference } from "../reference/server.js";
import { settingsFor } from "./reference-run.js";

type Refusal = { status: number; body: unknown } | undefined;

/**
 * The reference behind a proxy that answers the requests `refuse` picks as it says (status and JSON
 * body); the rest pass through. `refuse` may ask the reference itself (`upstream`) before it decides.
 */
export async function refusingProxy(refuse: (req: IncomingMessage, url: URL, upstream: string) => Refusal | Promise<Refusal>, over: Partial<RunSettings> = {}) {
  const ref = await startReference();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://proxy");
    const refusal = await refuse(req, url, ref.url);
    if (refusal) {
      res.writeHead(refusal.status, { "content-type": "application/json" }).end(JSON.stringify(refusal.body));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== "host" && k !== "content-length")) as Record<string, string>;
    const upstream = await fetch(ref.url + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    res.writeHead(upstream.status, Object.fromEntries(upstream.headers)).end(Buffer.from(await upstream.arrayBuffer()));
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
