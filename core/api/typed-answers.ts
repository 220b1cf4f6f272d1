import type { SpecEndpoint } from "./endpoints.js";
import type { SchemaName } from "./schemas.js";
import { matchOperation } from "./match.js";
import { SPECIFIED_OPERATIONS, type SpecifiedOperation } from "./operations.js";

/** The operation of the request last asked about: the invariants ask, each in turn, about the same exchange. */
let last: { method: string; path: string; op: SpecifiedOperation | undefined } | undefined;

/**
 * The schema the spec gives this answer, if it types it (the operation table's `answers`).
 * Answers of E14 endpoints (shapes not shown) and errors the spec gives no body for are not typed.
 */
export function typedAnswer(method: string, path: string, status: number): { schema: SchemaName; endpoint: SpecEndpoint } | undefined {
  if (last?.method !== method || last.path !== path) last = { method, path, op: matchOperation(SPECIFIED_OPERATIONS, method, path)?.operation };
  const { op } = last;
  const schema = op?.answers[status];
  return op && schema ? { schema, endpoint: op.section } : undefined;
}
