import type { OpenApiDocument } from "../../core/api/schemas.js";
import { matchOperation } from "../../core/api/match.js";
import { SPECIFIED_OPERATIONS } from "../../core/api/operations.js";
import { conforms, type Schema } from "../../generators/index.js";

/**
 * The reads of E1-E13 as the OpenAPI document lists them, and a read request as a client writes
 * it: shared by the no-5xx properties (suites/errors/server-errors.ts) and the class cases that
 * precede their search (suites/errors/class-reads.ts).
 */

export interface Param {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
}

export interface Read {
  spec: string;
  template: string;
  /** Its operation in the table: the input domain's edges of its parameters are drawn too. */
  operation: string;
  params: Param[];
}

/** A read to send: the values of the path's placeholders and of the query, as a client writes them. */
export interface ReadRequest {
  spec: string;
  template: string;
  path: Record<string, string>;
  query: Record<string, string>;
  /** The parameter given a value its schema refuses. */
  broken?: string;
}

export function readsOf(doc: OpenApiDocument): Read[] {
  const out: Read[] = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    const n = /^E(\d+)$/.exec(ops.get?.["x-spec-ref"] ?? "")?.[1];
    const operation = matchOperation(SPECIFIED_OPERATIONS, "GET", template)?.operation.name;
    if (n && Number(n) <= 13 && operation)
      out.push({
        spec: ops.get["x-spec-ref"],
        template,
        operation,
        params: (ops.get.parameters ?? []).filter((p: Param) => p.in === "query" || p.in === "path"),
      });
  }
  return out;
}

/** A value as a URL carries it. */
export const written = (v: unknown) => (typeof v === "string" ? v : typeof v === "object" && v !== null ? JSON.stringify(v) : String(v));

/** A query is text: "5" is the integer 5 as well as the string "5". Only a value no reading makes valid is invalid. */
export function readsValid(schema: Schema, s: string): boolean {
  const accepts = conforms(schema);
  if (accepts(s)) return true;
  try {
    return accepts(JSON.parse(s));
  } catch {
    return false;
  }
}
