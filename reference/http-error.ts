/** A request error the handler decided on: always a 4xx JSON body, never a crash. */
export class HttpError extends Error {
  constructor(readonly status: number, message: string, readonly extra: Record<string, unknown> = {}) {
    super(message);
  }
}
