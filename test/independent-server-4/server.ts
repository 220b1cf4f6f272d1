import { type AppOptions, buildApp } from "./app.js";

export interface StartedServer {
  url: string;
  token: string;
  tokens: Record<string, string>;
  close(): Promise<void>;
}

/** Starts an in-memory server with seeded data on 127.0.0.1 (port 0 = ephemeral by default). */
export async function startIndependentServer(opts?: { host?: string; port?: number } & AppOptions): Promise<StartedServer> {
  const { app, store } = await buildApp(opts);
  await app.listen({ host: opts?.host ?? "127.0.0.1", port: opts?.port ?? 0 });
  const addr = app.server.address();
  const port = typeof addr === "object" && addr ? addr.port : (opts?.port ?? 0);
  const host = opts?.host ?? "127.0.0.1";
  const tokens: Record<string, string> = {};
  for (const k of store.keys.values()) tokens[k.label] = k.key;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    token: tokens.admin!,
    tokens,
    close: async () => {
      await app.close();
    },
  };
}
