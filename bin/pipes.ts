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
      stream.write = (() => true) as typeof stream.write;
    });
  }
}
