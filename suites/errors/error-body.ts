import { invariant } from "../../core/run/invariants.js";
import { matchOperation } from "../../core/api/match.js";
import { API_PREFIX, OPERATIONS } from "../../core/api/operations.js";
import { isObject } from "../../core/ledger/records.js";
import { type Operation, operationsOf, SPEC_PATH } from "../../core/served/served-document.js";

/**
 * The refusals an operation itself gives (Errors 2: 400, 403, 409; 422 for a request it cannot
 * take): its errors, which Errors 1 shapes. Others may come from what stands before the
 * operation: 401 from the authentication (auth.reject.json-body), 404 and 405 from a router that
 * has no such route (a missing route is its check's failure, not a second one), 413, 414 and 431
 * from a proxy.
 */
const OPERATION_REFUSALS = new Set([400, 403, 409, 422]);

/**
 * Errors 1: a control-plane error is a JSON object whose `error` property is its message, a string.
 * Judged on every 4xx an operation of the table under /api/v1 (the control plane of the Base
 * address's table) answers: a JSON object holding `error`, whatever the request broke and however
 * deep (a validator's `{error: {path, message}}` for a nested field is the case one example
 * misses), and any of its own refusals, which must be such an object at all (a body that failed to
 * parse answered with a framework's plain-text page is the case). A body with `message` instead (a
 * string, or a validator's strings) is tolerated (the platform's facts; Errors 7).
 * E14's operations (users, groups, policies, embedding, settings, the workspace lists: the Base
 * address puts them on the control plane too) are judged where the server serves them: where its
 * own document (GET /api/v1/spec, as the run read it) lists the method and path. A server whose
 * E14 routes are elsewhere answers the table's path as it answers a path it does not have, which
 * is no refusal of an operation; a run that read no document judges no E14 answer.
 */
export const errorIsText = invariant({
  id: "errors.body.error-is-text",
  spec: "Errors 1",
  level: "MUST",
  title:
    "Every refusal (400, 403, 409, 422) of an /api/v1 operation (E1-E13, and E14's where the server documents them) is a JSON object with an error message ({message} tolerated), and every 4xx whose JSON body holds error gives it as a string, whatever the request broke",
  applicable:
    "a 4xx of an operation under /api/v1 (of E1-E13, or of E14 that the served document lists; a HEAD's excepted): 400, 403, 409 or 422, or a JSON body holding error",
  reasons: {
    "error-text": { title: "A control-plane error's error property is its message, a string", expected: '{"error": "<message>"}' },
    "error-not-json": {
      title: "A control-plane operation refused a request with a body that is no JSON object holding an error message",
      expected: '{"error": "<message>"} (or {"message": "<message>"})',
    },
  },
  watch: () => {
    // The served document's operations, once the run read it: the E14 operations this server has.
    let served: Operation[] | undefined;
    return (x) => {
      if (x.method === "GET" && x.url.pathname === SPEC_PATH && x.status === 200 && isObject(x.body) && typeof x.body.openapi === "string")
        served = operationsOf(x.body);
      if (x.status < 400 || x.status >= 500 || x.method === "HEAD") return undefined;
      const holdsError = x.isJson && isObject(x.body) && "error" in x.body;
      if (!holdsError && !OPERATION_REFUSALS.has(x.status)) return undefined;
      const op = matchOperation(OPERATIONS, x.method, x.url.pathname)?.operation;
      if (!op || op.prefix !== API_PREFIX) return undefined;
      if (op.section === "E14" && !(served && matchOperation(served, x.method, x.url.pathname))) return undefined;
      if (!holdsError) {
        // The NestJS style gives a validation's messages as an array of strings (variant error-message-body).
        const message = x.isJson && isObject(x.body) ? x.body.message : undefined;
        if (typeof message === "string" || (Array.isArray(message) && message.every((m) => typeof m === "string"))) return "held";
        return {
          reason: "error-not-json",
          defect: `${op.name} ${x.status} not-json`,
          message: `${x.method} ${x.url.pathname} answered ${x.status} with ${x.isJson ? "JSON that is no object holding error or message" : "a body that is not JSON"}`,
          expected: '{"error": "<message>"}',
          got: x.text.slice(0, 160) || "(an empty body)",
        };
      }
      if (typeof (x.body as { error: unknown }).error === "string") return "held";
      return {
        reason: "error-text",
        defect: `${op.name} ${x.status}`,
        message: `${x.method} ${x.url.pathname} answered ${x.status} with an error property that is not a string`,
        expected: '{"error": "<message>"}',
        got: JSON.stringify((x.body as { error: unknown }).error).slice(0, 160),
      };
    };
  },
});
