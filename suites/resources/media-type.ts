import { invariant } from "../../core/run/invariants.js";
import { matchOperation } from "../../core/api/match.js";
import { OPERATIONS } from "../../core/api/operations.js";

/** A JSON media type: application/json, or any type whose subtype is json or ends in +json (application/problem+json). */
const JSON_MEDIA_TYPE = /^[\w.-]+\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * "Request and response bodies are JSON unless stated otherwise": a JSON body is labelled as one.
 * Judged on the operations whose bodies the spec shows (E1-E13 on either prefix; E7 is its CSV),
 * success and error answers alike: a client reads the media type before the body. A SHOULD: the
 * spec says the bodies are JSON, and only implies their label.
 */
export const jsonMediaType = invariant({
  id: "resources.body.json-media-type",
  spec: "What the service does (request and response bodies are JSON unless stated otherwise); Errors 1",
  level: "SHOULD",
  title: "Every JSON body an operation of E1–E13 answers (E7's CSV aside), success or error, on either prefix, is labelled with a JSON media type",
  applicable: "a JSON body answered by an operation of E1-E13 other than E7",
  reasons: {
    "json-media-type": { title: "A JSON body is labelled with a JSON media type", expected: "Content-Type: application/json (or a +json type)" },
  },
  watch: () => (x) => {
    if (!x.isJson || x.method === "HEAD") return undefined;
    const op = matchOperation(OPERATIONS, x.method, x.url.pathname)?.operation;
    if (!op || op.section === "E14" || op.section === "E7") return undefined;
    const headers = x.exchange.responseHeaders ?? {};
    const type = Object.entries(headers).find(([k]) => k.toLowerCase() === "content-type")?.[1];
    if (type !== undefined && JSON_MEDIA_TYPE.test(type.trim())) return "held";
    const kind = x.status >= 400 ? "error" : "answer";
    return {
      reason: "json-media-type",
      defect: `${op.name} ${kind} ${type ?? "none"}`,
      message: `${x.method} ${x.url.pathname} answered ${x.status} with a JSON body labelled ${type === undefined ? "with no Content-Type" : JSON.stringify(type)}`,
      expected: "Content-Type: application/json (or a +json type)",
      got: type ?? "(no Content-Type)",
    };
  },
});
