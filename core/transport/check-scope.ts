import { AsyncLocalStorage } from "node:async_hooks";
import { setMaxListeners } from "node:events";

/**
 * How the running check may still talk to the server. `refuse` fires first: no new request is
 * sent, while those in flight may finish (a write that lands is then tracked, and cleaned up).
 * `abort` ends those in flight too.
 */
export interface CheckScope {
  /** The running check's id: the door names it when it refuses a request. */
  id: string;
  refuse: AbortSignal;
  abort: AbortSignal;
  /** Writes (`POST url`) aborted in flight: the server may have done them without the check learning what they made. */
  abortedWrites: string[];
}

/**
 * Carried by the async context, not by the Api object, because the undo closures a check
 * registers (scratch.onCleanup) call the same Api at cleanup: there they run in the runner's
 * context, outside any scope, so stopping a check stops its own late requests but never its cleanup.
 */
const scope = new AsyncLocalStorage<CheckScope>();

/** The running check's scope, if the caller is inside one. */
export function checkScope(): CheckScope | undefined {
  return scope.getStore();
}

/** Why a check was stopped; not a verdict. */
export class CheckStopped extends Error {
  abortedWrites: string[] = [];
}

/** The check ran past its time limit; its requests were aborted. */
export class CheckTimedOut extends CheckStopped {}

/** The user stopped the run (Ctrl-C, SIGTERM) while the check was running. */
export class CheckInterrupted extends CheckStopped {}

/** How long an aborted check may take to unwind before cleanup starts without it. */
const UNWIND_MS = 2_000;

/**
 * Runs a check's body in its own scope. At `ms` its requests are aborted at once (a hung one
 * would otherwise hold the run). When `stop` fires, new requests are refused and those in flight
 * get `drainMs` to finish before they are aborted too. Either way the body gets a short while to
 * unwind, and the outcome is CheckTimedOut / CheckInterrupted whatever the body did afterwards:
 * a body that swallowed the abort must not come back as a pass.
 */
export async function runInCheckScope(body: () => Promise<void>, opts: { ms: number; id: string; stop?: AbortSignal; drainMs: number }): Promise<void> {
  const refuse = new AbortController();
  const abort = new AbortController();
  // Each request in flight listens on them (a race fires dozens at once): no leak warning for that.
  setMaxListeners(0, refuse.signal, abort.signal);
  let reason: CheckTimedOut | CheckInterrupted | undefined;
  let wake: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (wake = resolve));
  const timer = setTimeout(() => {
    reason ??= new CheckTimedOut(`timed out: ${opts.id} did not finish within ${opts.ms} ms; its requests were aborted`);
    refuse.abort(reason);
    abort.abort(reason);
    wake();
  }, opts.ms);
  const onStop = () => {
    reason ??= new CheckInterrupted(
      "interrupted: the run was stopped while this check was running; it sent nothing more, and what it had in flight was let finish (aborted past the request timeout)",
    );
    refuse.abort(reason);
    wake();
  };
  if (opts.stop?.aborted) onStop();
  else opts.stop?.addEventListener("abort", onStop, { once: true });

  const abortedWrites: string[] = [];
  const running = scope.run({ id: opts.id, refuse: refuse.signal, abort: abort.signal, abortedWrites }, body);
  const ended = running.then(
    () => ({ ok: true as const }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  try {
    const first = await Promise.race([ended, stopped]);
    // The stop decides, even when the body's own end (often the stop's error) came first.
    if (reason) {
      if (!abort.signal.aborted && !(await within(ended, opts.drainMs))) abort.abort(reason);
      await within(ended, UNWIND_MS);
      reason.abortedWrites = abortedWrites;
      throw reason;
    }
    if (first && !first.ok) throw first.error;
  } finally {
    clearTimeout(timer);
    opts.stop?.removeEventListener("abort", onStop);
  }
}

/** Whether `p` settles within `ms`. */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([p.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
