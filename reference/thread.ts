/**
 * The reference served from a worker thread of its own, so that on two cores the suite and the
 * server need not take turns on one thread (issue 21, the budget). Same options and state as
 * `startReference`; the state dies with the thread, and a thread cannot outlive its process.
 * Measured by the bench beside the in-process server (`loopback-c8-worker`): on the shared
 * two-core machine it was no faster and 25-30 MiB larger, so `--reference` keeps the server in
 * the suite's thread until it measures better. Needs the compiled JavaScript (dist/).
 */
import { Worker } from "node:worker_threads";
import type { StartOptions } from "./server.js";
import type { ThreadReady } from "./thread-worker.js";

export interface ReferenceThread {
  url: string;
  config(): Record<string, unknown>;
  close(): Promise<void>;
}

export async function startReferenceThread(opts: StartOptions = {}): Promise<ReferenceThread> {
  const worker = new Worker(new URL("./thread-worker.js", import.meta.url), { workerData: opts });
  const ready = await new Promise<ThreadReady>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the reference server's thread stopped before it listened (exit ${code})`)));
  });
  worker.removeAllListeners();
  if ("error" in ready) {
    await worker.terminate();
    throw new Error(ready.error);
  }
  // Requests in flight keep the process alive, not the server waiting for the next one.
  worker.unref();
  let closed: Promise<void> | undefined;
  return {
    url: ready.url,
    config: () => ready.config,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        worker.once("exit", () => resolve());
        // Held again until it has closed: else a process with nothing else to do ends first.
        worker.ref();
        worker.postMessage("close");
      })),
  };
}
