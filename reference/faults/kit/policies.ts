import { HttpError, type Fault } from "../../http.js";

/**
 * Building blocks of faults that replace a policy of an endpoint (Fault.handle) rather than a
 * seam of the behaviour object: the handler states the spec's answer, the fault changes it.
 */
export type Policy = NonNullable<Fault["handle"]>;

/** A refusal the handler decides, answered with another status (its message and extras kept). */
export function refusalAnsweredAs(status: number, refusal: (err: HttpError) => boolean): Policy {
  return async ({ next }) => {
    try {
      return await next();
    } catch (err) {
      if (err instanceof HttpError && refusal(err)) throw new HttpError(status, err.message, err.extra);
      throw err;
    }
  };
}

/** A refusal saying `<what> <id> not found` (the deployment's own 404 is another). */
export const notFound = (what: string) => (err: HttpError) => err.status === 404 && new RegExp(`^${what} .+ not found`).test(err.message);
