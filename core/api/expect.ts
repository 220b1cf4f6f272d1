import { isDeepStrictEqual } from "node:util";
import type { Response } from "../model/exchange.js";
import { CheckFailure } from "../model/outcome.js";
import type { ReasonKey } from "../model/reasons.js";
import type { SchemaName, Schemas } from "./schemas.js";

/**
 * Assertions that speak the language of the report: each names what was expected and what came,
 * and points at the exchange that shows it.
 */
export class Expect {
  constructor(private readonly schemas: Schemas) {}

  fail(what: string, detail: Detail): never {
    throw new CheckFailure(what, { expected: detail.expected, got: detail.got, exchange: detail.res?.exchange, reason: detail.reason });
  }

  that(condition: boolean, what: string, detail: Detail): void {
    if (!condition) this.fail(what, detail);
  }

  /** `at`: the answer that shows it, and the assertion's reason key. */
  equal<T>(got: T, expected: T, what: string, at: { res?: Response; reason: ReasonKey }): void {
    if (!isDeepStrictEqual(got, expected)) this.fail(what, { expected, got, res: at.res, reason: at.reason });
  }

  /** Reason `status` unless told another. */
  status(res: Response, expected: number | readonly number[], what = "status", reason: ReasonKey = "status"): void {
    const allowed = Array.isArray(expected) ? expected : [expected];
    if (!allowed.includes(res.status)) this.fail(`${what}: unexpected status`, { expected: allowed.join(" or "), got: statusLine(res), res, reason });
  }

  /** A request error: any 4xx. A 2xx or a 5xx is not. Reason `client-error` unless told another. */
  clientError(res: Response, what = "the request is rejected as a client error", reason: ReasonKey = "client-error"): void {
    if (res.status < 400 || res.status >= 500) this.fail(what, { expected: "a 4xx status", got: statusLine(res), res, reason });
  }

  /** The body as JSON; a body that is not JSON fails clearly (a hosted tenant may answer HTML). */
  json<T>(res: Response<T>): T {
    if (!res.isJson) {
      const ct = res.headers["content-type"] ?? "no content-type";
      this.fail("the response is not JSON", { expected: "a JSON body", got: `${ct}: ${JSON.stringify(res.text.slice(0, 120))}`, res, reason: "not-json" });
    }
    return res.body;
  }

  /** 200 with a JSON body that matches the schema; returns the body. */
  ok<T>(res: Response<T>, schema?: SchemaName): T {
    this.status(res, 200);
    const body = this.json(res);
    if (schema) this.schema(body, schema, res);
    return body;
  }

  schema(value: unknown, schema: SchemaName, res?: Response, where = "the body"): void {
    const { errors, timestampsOnly } = this.schemas.check(schema, value);
    // A malformed timestamp is the timestamps invariant's defect: the shared reason lets one failure stand for it (core/run/shared-defects.ts).
    if (errors.length)
      this.fail(`${where} does not match the ${schema} schema`, {
        expected: `a valid ${schema}`,
        got: errors.slice(0, 8).join("; "),
        res,
        reason: timestampsOnly ? "timestamp" : `schema:${schema}`,
      });
  }

  /** A JSON error body whose message is under `error` or `message` (Errors 1; published docs: both seen). */
  errorBody(res: Response): void {
    const body = this.json(res);
    this.schema(body, "ErrorBody", res, "the error body");
  }
}

/** What a failed assertion shows; `reason`, required, is its key in the registry (core/model/reasons.ts). */
export interface Detail {
  expected?: unknown;
  got?: unknown;
  res?: Response;
  reason: ReasonKey;
}

export function statusLine(res: Response): string {
  const excerpt = res.text.length > 160 ? res.text.slice(0, 160) + "…" : res.text;
  return `${res.status} ${excerpt}`.trim();
}
