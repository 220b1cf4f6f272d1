import type { App } from "./http.js";
import type { Reply } from "./reply.js";
import type { Variant } from "./variant.js";

/**
 * Servers behind a gateway that says "not now" from time to time (the spec shows no rate limit;
 * the platform's facts: official clients retry 429 and 5xx, and a 429 is never a conformance
 * failure). The answer comes before the request is handled, so nothing of it is applied: a
 * client that waits and sends it again sees the server as if nothing had happened.
 */
const seen = new WeakMap<App, number>();

/** Every `every`th request of this server, the transient answer; otherwise undefined. */
function everyNth(every: number, reply: Reply): (app: App) => Reply | undefined {
  return (app) => {
    const n = (seen.get(app) ?? 0) + 1;
    seen.set(app, n);
    return n % every === 0 ? reply : undefined;
  };
}

export const transientVariants: Variant[] = [
  {
    name: "unavailable-now-and-then",
    description: "once in thirty requests, whatever the route, 503 Service Unavailable with Retry-After: 1 before handling it",
    routes: [],
    transient: everyNth(30, { status: 503, headers: { "retry-after": "1" }, body: { error: "service unavailable, try again" } }),
  },
  {
    name: "rate-limited-every-25th",
    description: "every 25th request, whatever the route, 429 Too Many Requests with no Retry-After before handling it",
    routes: [],
    transient: everyNth(25, { status: 429, body: { error: "too many requests" } }),
  },
];
