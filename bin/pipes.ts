/**
 * When the reader of stdout or stderr goes away (`conformance ... | head -2`, a closed terminal), further output is
 * dropped quietly instead of crashing the run with an EPIPE stack trace: the run goes on, so that
 * cleanup happens and the reports and the exit code still mean what they say.
 */
export function dropOutputOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (err: NodeJS.ErrnoException) => {
      // EIO: the terminal itself went away (SIGHUP), and cleanup is still under way.
      if (err.code !== "EPIPE" && err.code !== "EIO") throw err;
      closed.add(stream);
      stream.write = ((...args: unknown[]) => {
        const done = args.find((a) => typeof a === "function") as (() => void) | undefined;
        done?.();
        return true;
      }) as typeof stream.write;
    });
  }
}

const closed = new Set<NodeJS.WriteStream>();

/**
 * Exits once stdout and stderr have handed every byte to their readers. On a pipe, Node writes
 * asynchronously: `process.exit` right after the last write cuts off what the pipe had not taken
 * yet (the last 20 KB of `list --json | wc -c`, the final verdict line through `| tee`). A slow
 * reader is waited for, as any command-line tool waits; a reader that went away is not.
 */
export async function exitWhenFlushed(code: number): Promise<never> {
  await Promise.all([process.stdout, process.stderr].map(flushed));
  process.exit(code);
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (closed.has(stream) || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    // An empty write's callback runs once everything written before it is out (or failed).
    stream.once("error", () => resolve());
    stream.once("close", () => resolve());
    stream.write("", () => resolve());
  });
}
