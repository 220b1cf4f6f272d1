/** A request error the handler decided on: always a 4xx JSON body, never a crash. */
export class HttpError extends Error {
  readonly status: number;
  readonly extra: Record<string, unknown>;
  constructor(status: number, message: string, extra: Record<string, unknown> = {}) {
    // An answer, not a crash: its stack is never shown, and capturing one for each of the
    // thousands of requests a run refuses took some 35 ms of the run's CPU.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.status = status;
    this.extra = extra;
  }
}
