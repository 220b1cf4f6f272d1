import { invariant } from "../../core/run/invariants.js";
import { matchOperation } from "../../core/api/match.js";
import { OPERATIONS } from "../../core/api/operations.js";

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
          // One defect per operation (a path of the table's, else the path as sent) and status, whatever bodies brought it.
          defect: `${matchOperation(OPERATIONS, x.method, x.url.pathname)?.operation.name ?? `${x.method} ${x.url.pathname}`} ${x.status}`,
          message: `${x.method} ${x.url.pathname} answered ${x.status}`,
          expected: "a status below 500",
          got: `${x.status} ${x.text.slice(0, 160)}`,
        }
      : "held",
});
