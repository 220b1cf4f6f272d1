import type { Api } from "../transport/api.js";
import type { Exchange } from "../transport/http.js";
import { documentedResponse, type Operation } from "./served-document.js";
import { NAMED_E14, specSectionOf } from "../api/spec-operations.js";
import { matchOperation, operationKey } from "../api/match.js";

const PROBES_AT_ONCE = 8;

/** One operation of the served document: what the run's traffic did with it. */
export interface OperationCoverage {
  method: string;
  path: string;
  /** The spec section that names it (E1–E13, E14 for its table), if any. */
  spec?: string;
  /** Every status it answered in the run, ascending. */
  statuses: number[];
  /** The checks whose requests reached it (`discovery` for fixture discovery and cleanup). */
  checks: string[];
  /** Answered at least once past authentication and routing: a 2xx, or a status its document lists. */
  exercised: boolean;
}

/** An operation of E14's table the document does not list, and what a safe probe of it showed. */
export interface UndocumentedOperation {
  method: string;
  path: string;
  status?: number;
  verdict: "served" | "not served" | "cannot tell";
}

export interface CoverageReport {
  documented: number;
  exercised: number;
  /** exercised / documented, in percent (0 when the document lists nothing). */
  percent: number;
  operations: OperationCoverage[];
  undocumented: UndocumentedOperation[];
  /** Why there is no coverage (the document could not be read), when so. */
  problem?: string;
  /** Which document was read: the served one, or the one given with --document. */
  source?: string;
}

interface Seen {
  method: string;
  path: string;
  status?: number;
  checkId?: string;
}

/** Every exchange of the run, reduced to what coverage needs (method, path, status, check). */
export class ExchangeTally {
  readonly seen: Seen[] = [];
  observe(exchange: Exchange, checkId?: string): void {
    let path: string;
    try {
      path = new URL(exchange.url).pathname;
    } catch {
      return;
    }
    this.seen.push({ method: exchange.method, path, status: exchange.status, checkId });
  }
}

/** What the run's traffic covered of the document's operations. */
export function operationCoverage(ops: Operation[], tally: ExchangeTally, undocumented: UndocumentedOperation[] = []): CoverageReport {
  const byOp = new Map<Operation, Seen[]>(ops.map((o) => [o, []]));
  for (const s of tally.seen) {
    const op = matchOperation(ops, s.method, s.path)?.operation;
    if (op) byOp.get(op)!.push(s);
  }
  const operations = ops.map((op): OperationCoverage => {
    const seen = byOp.get(op)!;
    const statuses = [...new Set(seen.map((s) => s.status).filter((s): s is number => s !== undefined))].sort((a, b) => a - b);
    // Past authentication and routing: a 2xx, or a 3xx/4xx the document lists (a 404 or 405 only when listed by its own number).
    const past = (s: number) =>
      (s >= 200 && s < 300) ||
      (s >= 300 &&
        s < 500 &&
        s !== 401 &&
        s !== 403 &&
        (op.responses[String(s)] !== undefined || (s !== 404 && s !== 405 && documentedResponse(op, s) !== undefined)));
    const exercised = statuses.some(past);
    return {
      method: op.method,
      path: op.path,
      spec: specSectionOf(op.key),
      statuses,
      checks: [...new Set(seen.map((s) => s.checkId ?? "discovery"))].sort(),
      exercised,
    };
  });
  const exercised = operations.filter((o) => o.exercised).length;
  return { documented: ops.length, exercised, percent: ops.length ? Math.floor((exercised / ops.length) * 1000) / 10 : 0, operations, undocumented };
}

/**
 * E14's operations the document leaves out, probed safely: a read is sent with the key (a read
 * changes nothing); a write is never sent, whatever the run allows: its effect on a discovered
 * object is the tenant's risk, and without a key a 401 cannot be told from a server that refuses
 * before routing. A write is listed as "cannot tell", with no status.
 */
export async function probeUndocumented(api: Api, ops: Operation[], deploymentId: string | undefined): Promise<UndocumentedOperation[]> {
  const listed = new Set(ops.map((o) => o.key));
  const probe = async (o: (typeof NAMED_E14)[number]): Promise<UndocumentedOperation> => {
    if (o.method !== "GET") return { method: o.method, path: o.path, verdict: "cannot tell" };
    const path = o.path.replace(/\{([^}]+)\}/g, (_, name: string) => (/^deploymentId$/.test(name) && deploymentId ? encodeURIComponent(deploymentId) : "0"));
    const res = await api.get(path);
    const verdict = res.status === 404 || res.status === 405 ? "not served" : res.status === 401 || res.status === 403 ? "cannot tell" : "served";
    return { method: o.method, path: o.path, status: res.status, verdict };
  };
  const todo = NAMED_E14.filter((x) => !listed.has(operationKey(x.method, x.path)));
  const out: UndocumentedOperation[] = [];
  for (let i = 0; i < todo.length; i += PROBES_AT_ONCE) out.push(...(await Promise.all(todo.slice(i, i + PROBES_AT_ONCE).map(probe))));
  return out;
}

/** One line for the console and the CI log. */
export function coverageLine(c: CoverageReport): string {
  if (c.problem) return `operations: no coverage: ${c.problem}`;
  const served = c.undocumented.filter((u) => u.verdict === "served");
  return `operations: ${c.exercised} of ${c.documented} the served document lists were exercised (${c.percent}%)${c.source?.startsWith("given") ? `; document ${c.source}` : ""}${served.length ? `; ${served.length} of E14 served but not documented: ${served.map((u) => `${u.method} ${u.path}`).join(", ")}` : ""}`;
}

/** A line per operation: exercised or not, the statuses it answered, the checks that reached it. */
export function operationLines(c: CoverageReport): string[] {
  return [
    ...c.operations.map(
      (o) =>
        `  ${o.exercised ? "exercised    " : "NOT exercised"} ${o.method} ${o.path}${o.spec ? ` (${o.spec})` : ""}: statuses ${o.statuses.join(", ") || "none"}; ${o.checks.length} check(s)${o.checks.length ? `: ${o.checks.slice(0, 6).join(", ")}${o.checks.length > 6 ? ", …" : ""}` : ""}`,
    ),
    ...c.undocumented.map(
      (u) => `  not in the document: ${u.method} ${u.path}: ${u.verdict} (${u.status ?? (u.method === "GET" ? "no answer" : "a write: not probed")})`,
    ),
  ];
}
