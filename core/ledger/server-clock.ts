import type { FullAnswer } from "../model/exchange.js";
import { parseTimestamp } from "../api/timestamps.js";
import { TOOL_NAME } from "../model/names.js";
import { tookWrite } from "../api/methods.js";
import { isObject } from "./records.js";

/**
 * The server's clock where its answers carry no Date header (RFC 9110 asks one of every origin
 * server with a clock; not every server sends it). What the run creates under its own name is
 * stamped createdAt by the server before its answer: so the server's clock is ahead of this
 * machine's by at least that createdAt less the local time of the answer. The largest such bound
 * over the run's creates reads the server's clock from below at any later moment, within a round
 * trip and the stamp's grain: what the ledger needs to tell a clone made since a request from a
 * `Copy of …` that was there before it (core/ledger/scratch.ts, `track`).
 */
export class ServerClock {
  /** The least the server's clock is ahead of this machine's, in ms, as the run's creates show it. */
  private ahead?: number;

  /** Fed every answer of the run when it arrives. */
  see(answer: FullAnswer | undefined, answeredAt = Date.now()): void {
    if (!answer || !tookWrite(answer.method, answer.status) || !answer.isJson) return;
    const record = recordOf(answer.body);
    if (!record || !Object.values(record).some((v) => typeof v === "string" && TOOL_NAME.test(v))) return;
    const created = parseTimestamp(record.createdAt ?? record.created_at);
    // A date alone, or a time that names no offset, is no instant to compare with this machine's clock.
    if (!created || created.dateOnly || !created.hasOffset) return;
    const bound = created.ms - answeredAt;
    if (this.ahead === undefined || bound > this.ahead) this.ahead = bound;
  }

  /** The server's clock at least, at this machine's `localMs`; undefined until a create of the run's showed it. */
  at(localMs: number): number | undefined {
    return this.ahead === undefined ? undefined : localMs + this.ahead;
  }
}

/** The created record an answer holds: itself, or under data. */
function recordOf(body: unknown): Record<string, unknown> | undefined {
  if (!isObject(body)) return undefined;
  return isObject(body.data) ? body.data : body;
}
