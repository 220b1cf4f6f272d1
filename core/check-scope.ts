import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The abort signal of the check whose code is running. It is carried by the async context, not
 * by the Api object, because the undo closures a check registers (scratch.onCleanup) call the
 * same Api at cleanup: there they run in the runner's context, with no signal, so aborting a
 * check stops its own late requests but never its cleanup.
 */
const scope = new AsyncLocalStorage<AbortSignal>();

/** The running check's signal, if the caller is inside one. */
export function checkSignal(): AbortSignal | undefined {
  return scope.getStore();
}

/** The check ran past its time limit; its requests were aborted. Not a verdict. */
export class CheckTimedOut extends Error {}

/** The user stopped the run (Ctrl-C, SIGTERM) while the check was running. Not a verdict. */
export class CheckInterrupted extends Error {}

/** How long an aborted check may take to unwind before cleanup starts without it. */
const UNWIND_MS = 2_000;

/**
 * Runs a check's body with its own abort signal. At `ms`, or when `stop` fires, the signal is
 * aborted (every request of the check fails at once, in flight or not yet sent), the body gets a
 * short while to unwind, and the outcome is CheckTimedOut / CheckInterrupted whatever the body
 * did afterwards: a body that swallowed the abort must not come back as a pass.
 */
export async function runInCheckScope(body: () => Promise<void>, opts: { ms: number; id: string; stop?: AbortSignal }): Promise<void> {
  const controller = new AbortController();
  let reason: CheckTimedOut | CheckInterrupted | undefined;
  let wake: () => void = () => undefined;
  const aborted = new Promise<void>((resolve) => (wake = resolve));
  const abort = (why: CheckTimedOut | CheckInterrupted) => {
    if (reason) return;
    reason = why;
    controller.abort(why);
    wake();
  };
  const timer = setTimeout(() => abort(new CheckTimedOut(`timed out: ${opts.id} did not finish within ${opts.ms} ms; its requests were aborted`)), opts.ms);
  const onStop = () => abort(new CheckInterrupted("interrupted: the run was stopped while this check was running; its requests were aborted"));
  if (opts.stop?.aborted) onStop();
  else opts.stop?.addEventListener("abort", onStop, { once: true });
  const running = scope.run(controller.signal, body);
  const ended = running.then(
    () => ({ ok: true as const }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  try {
    const first = await Promise.race([ended, aborted]);
    // The abort decides, even when the body's own end (often the abort's error) came first.
    if (reason) {
      await Promise.race([ended, sleep(UNWIND_MS)]);
      throw reason;
    }
    if (first && !first.ok) throw first.error;
  } finally {
    clearTimeout(timer);
    opts.stop?.removeEventListener("abort", onStop);
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());
