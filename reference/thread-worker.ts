/** The worker of reference/thread.ts: serves the reference until the parent posts "close". */
import { parentPort, workerData } from "node:worker_threads";
import { startReference, type StartOptions } from "./server.js";

/** What the worker posts once: the server's address and config, or why it could not start. */
export type ThreadReady = { url: string; config: Record<string, unknown> } | { error: string };

const port = parentPort!;
try {
  const ref = await startReference(workerData as StartOptions);
  port.once("message", async () => {
    await ref.close();
    port.close();
  });
  port.postMessage({ url: ref.url, config: ref.config() } satisfies ThreadReady);
} catch (e) {
  port.postMessage({ error: (e as Error).message } satisfies ThreadReady);
}
