import { invariant } from "../../core/run/invariants.js";

/**
 * Errors 2 lists the statuses the service uses, and none is a 5xx: whatever a check sent, in
 * discovery, examples, properties or cleanup, a 5xx is the server's failure.
 */
export const noServerErrors = invariant({
  id: "errors.no-5xx.every-exchange",
  spec: "Errors 2",
  level: "MUST",
  title: "No exchange of the run (discovery, checks, properties, cleanup) gets a 5xx",
  applicable: "any answer",
  watch: () => (x) =>
    x.status >= 500
      ? {
          reason: "server-error",
          message: `${x.method} ${x.url.pathname} answered ${x.status}`,
          expected: "a status below 500",
          got: `${x.status} ${x.text.slice(0, 160)}`,
        }
      : "held",
});
