import type { RequestSpec, Response } from "./http.js";
import { IDEMPOTENT } from "./http-timing.js";
import { type ListReader, walkCursor } from "./pagination.js";
import { TOOL_PREFIX } from "../model/names.js";
import { matchOperation } from "../api/match.js";
import { OPERATIONS } from "../api/operations.js";

/** The first scratch name a write's body carries: what the run makes it names with its prefix, unique to the run. */
function scratchNameIn(body: unknown): string | undefined {
  if (typeof body === "string") return body.startsWith(TOOL_PREFIX) ? body : undefined;
  if (Array.isArray(body)) return body.map(scratchNameIn).find(Boolean);
  if (body && typeof body === "object") return Object.values(body).map(scratchNameIn).find(Boolean);
  return undefined;
}

/**
 * How the run can tell whether a POST or PATCH answered 429/503 was applied, where it can: a POST
 * to a list the spec also reads (GET on the same path) that names what it makes with a scratch name
 * is applied when the list shows that name; a PATCH that sets a scratch name, when the record read
 * back shows it. The name is the run's alone (core/ledger/scratch.ts), so no other object can show
 * it. A read that cannot tell (refused, cut short, broken) counts as applied: the write is not sent
 * again. Undefined where no read-back can tell: the client then does not send it again either.
 */
export function readBackFor(api: ListReader, spec: RequestSpec): RequestSpec["readBack"] {
  if (IDEMPOTENT.has(spec.method)) return undefined;
  // An operation whose second sending leaves the same state (a row of the table says so: a bulk
  // action per item, a flag set, dev mode started) is sent again as a PUT would be, with no read-back.
  if (matchOperation(OPERATIONS, spec.method, spec.path)?.operation.resendable) return async () => false;
  if (!matchOperation(OPERATIONS, "GET", spec.path)) return undefined;
  const name = scratchNameIn(spec.body);
  if (!name) return undefined;
  const quoted = JSON.stringify(name);
  const shows = (res: Response) => res.text.includes(quoted);
  if (spec.method === "PATCH")
    return async () => {
      const res = await api.get(spec.path);
      return res.status !== 200 || shows(res);
    };
  return async () => {
    try {
      const walk = await walkCursor(api, spec.path, { until: (items) => JSON.stringify(items).includes(quoted) });
      // Absent only from a list seen whole: a last page that says no page follows (a list paged otherwise cannot tell).
      const whole = !walk.partial && walk.pages.at(-1)?.pageInfo?.hasNextPage === false;
      return walk.pages.some((p) => shows(p.res)) || !whole;
    } catch {
      // The walk's own defect (a page that is not one, a cursor that does not move): it cannot tell.
      return true;
    }
  };
}
