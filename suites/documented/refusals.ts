import type { CheckContext } from "../../core/check/context.js";
import { statusLine } from "../../core/api/expect.js";
import type { Response } from "../../core/transport/http.js";
import { DocumentSchemas } from "../../core/served/document-schemas.js";
import type { ServedOperation } from "../../core/served/served-operations.js";
import { specSectionOf } from "../../core/api/spec-operations.js";
import { contradiction } from "../lib/documented-requests.js";

const schemas = new DocumentSchemas();

/** The body keys a refusal's text names, for the reader of a finding ("the answer names firstName"). */
export function namedIn(res: Response, body: unknown): string {
  const keys = body && typeof body === "object" ? Object.keys(body).filter((k) => res.text.includes(k)) : [];
  return keys.length ? ` (the answer names ${keys.join(", ")})` : "";
}

/**
 * A request built from the operation's document, on an object of the run's own, is answered with
 * a 2xx the document lists, in its documented content type and body schema. A 4xx to it is a
 * finding that names the fields the refusal names; anything else the document does not list, as
 * documented.reads judges a read. Returns the answer's record (under its documented wrapper).
 */
export function answeredAsDocumented(ctx: CheckContext, op: ServedOperation, res: Response, what: string, sent?: unknown): any {
  const where = `${specSectionOf(op.op.key) ?? "not in the spec"}: ${op.label}`;
  if (res.status >= 400 && res.status < 500)
    ctx.expect.fail(`${where}: ${what}, a request valid under its document, is refused${namedIn(res, sent)}`, {
      expected: "a 2xx the document lists",
      got: statusLine(res),
      res,
      reason: "valid-request-refused",
    });
  const c = contradiction(op.op, res, schemas);
  if (c) ctx.expect.fail(`${where}: ${what}: ${c.what}`, { expected: c.expected, got: c.got, res, reason: c.reason });
  if (res.status < 200 || res.status >= 300)
    ctx.expect.fail(`${where}: ${what} is answered with a status that is no 2xx`, {
      expected: "a 2xx the document lists",
      got: statusLine(res),
      res,
      reason: "valid-request-refused",
    });
  return res.isJson ? op.record(res) : undefined;
}
