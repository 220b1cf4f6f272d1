import type { Api } from "../../core/transport/api.js";
import type { Response } from "../../core/transport/http.js";
import { retryAfterMs, sleep } from "../../core/transport/http-timing.js";
import type { Method } from "../../core/api/operations.js";

/**
 * A success as HTTP allows it, where the spec names no status (RFC 9110 §15.3): the request
 * carried out (200, a 201 for a PUT or POST that made something, 204 with no body) or accepted for
 * processing (202, with or without a Location to follow). The one home of this list: a rule whose
 * status is open is judged by reading the state back, never by which of these came.
 */
export const SUCCESS: Record<Method, readonly number[]> = {
  GET: [200, 203],
  POST: [200, 201, 202, 204],
  PUT: [200, 201, 202, 204],
  PATCH: [200, 202, 204],
  DELETE: [200, 202, 204],
};

export const succeeded = (method: Method, res: Pick<Response, "status">): boolean => SUCCESS[method].includes(res.status);

/** How often a 202's Location is read before the state is read back anyway: the work a 202 accepts may still be running. */
const POLLS = 8;

/**
 * After a 202, what the answer says to wait for: its Location (same server) read until it stops
 * answering 202, within a bound, each wait as its Retry-After asks. Any other answer is settled.
 * The rule is then judged by reading the state back, which may itself be read again (walkAgainUntil).
 */
export async function settled(api: Api, res: Response): Promise<void> {
  if (res.status !== 202) return;
  const location = res.headers.location;
  if (!location) return sleep(retryAfterMs(res.headers["retry-after"], 0));
  const target = new URL(location, `${api.baseUrl}/`);
  const base = new URL(`${api.baseUrl}/`);
  if (target.origin !== base.origin) return;
  let wait = res;
  for (let i = 0; i < POLLS && wait.status === 202; i++) {
    if (i > 0) await sleep(retryAfterMs(wait.headers["retry-after"], i));
    wait = await api.get(target.pathname + target.search);
  }
}
