import { invariant } from "../../core/run/invariants.js";
import { matchOperation } from "../../core/api/match.js";
import { API_PREFIX, OPERATIONS } from "../../core/api/operations.js";
import { isObject } from "../../core/ledger/records.js";

/**
 * Errors 1: a control-plane error is a JSON object whose `error` property is its message, a string.
 * Judged on every 4xx a spec'd operation under /api/v1 (the control plane of the Base address's
 * table; E1-E13) answers with a JSON object holding `error`, whatever the request broke and however
 * deep: a validator's `{error: {path, message}}` for a nested field is the case one example misses.
 * A body with `message` instead is tolerated (the platform's facts), and E14's bodies are its
 * document's.
 */
export const errorIsText = invariant({
  id: "errors.body.error-is-text",
  spec: "Errors 1",
  level: "MUST",
  title: "Every 4xx of a spec'd /api/v1 operation whose JSON body holds error gives it as a string message, whatever the request broke",
  applicable: "a 4xx JSON body holding error, from an operation of E1-E13 under /api/v1",
  reasons: { "error-text": { title: "A control-plane error's error property is its message, a string", expected: '{"error": "<message>"}' } },
  watch: () => (x) => {
    if (x.status < 400 || x.status >= 500 || !x.isJson || !isObject(x.body) || !("error" in x.body)) return undefined;
    const op = matchOperation(OPERATIONS, x.method, x.url.pathname)?.operation;
    if (!op || op.section === "E14" || op.prefix !== API_PREFIX) return undefined;
    if (typeof x.body.error === "string") return "held";
    return {
      reason: "error-text",
      defect: `${op.name} ${x.status}`,
      message: `${x.method} ${x.url.pathname} answered ${x.status} with an error property that is not a string`,
      expected: '{"error": "<message>"}',
      got: JSON.stringify(x.body.error).slice(0, 160),
    };
  },
});
