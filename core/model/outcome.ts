import type { Exchange } from "./exchange.js";
import type { ReasonKey } from "./reasons.js";

/** The server broke the rule: a verdict. */
export class CheckFailure extends Error {
  /**
   * Which assertion of the check failed: a key of the registry (core/model/reasons.ts: `same-id`,
   * `status`, `schema:Workbook`), stable across rewordings of the message. A fault declares the
   * reason it must cause (reference/faults.ts `because`), so a proof compares keys, not prose.
   */
  reason?: ReasonKey;
  expected?: string;
  got?: string;
  exchange?: Exchange;
  /** For properties: seed, path, the shrunk counterexample and its requests. */
  property?: PropertyFailure;
  /**
   * The failure shows a write the rule forbade, applied (a refused body that changed what it named):
   * a fact. Its case sent again meets the object already changed, where the same write changes
   * nothing more, so a replay that passes cannot make it intermittent (core/run/property.ts).
   */
  stateChange?: true;
  constructor(message: string, detail: { expected?: unknown; got?: unknown; exchange?: Exchange; reason?: ReasonKey } = {}) {
    super(message);
    this.reason = detail.reason;
    if ("expected" in detail) this.expected = show(detail.expected);
    if ("got" in detail) this.got = show(detail.got);
    this.exchange = detail.exchange;
  }
}

export interface PropertyFailure {
  seed: number;
  path: string;
  runs: number;
  counterexample: string;
  /** The writes the check sent before the search (what the case acts on): part of the reproduction. */
  setupExchanges?: Exchange[];
  shrunkExchanges: Exchange[];
  reproducible?: "reproducible" | "intermittent";
}

/** The check cannot run here because of what the user chose or did not configure; the reason is shown. */
export class Skip extends Error {}

/**
 * The check depends on an endpoint whose shape the spec does not show (folder creation, bulk
 * delete, settings): the server cannot be faulted for it, and the rule is not verifiable here.
 */
export class NotVerifiable extends Error {}

/** The scenario the rule is about did not happen (no 409 in the race, count null): not a pass. */
export class NotExercised extends Error {}

/**
 * What a blocked check is blocked by, as data: the check that failed on the cause (it owns the
 * endpoint, or it is the first to fail on a shared answer) and the exchange that shows the cause.
 * Decisions read `check`; `blockedBy` beside it is the same root as a sentence for people.
 */
export interface BlockedRoot {
  check: string;
  exchange?: { method: string; url: string; status?: number };
  /** A discovery root's list owner (core/api/preconditions.ts): when that check failed, the defect is its, and the root becomes it. */
  owner?: { check: string; cause: string };
}

/**
 * The server failed a precondition the spec makes its duty (a spec'd endpoint answered 404, 5xx
 * or garbage), so the rule could not be judged: counted as a failure at the check's level.
 * `rootCause` names the request and what came back, e.g. `PUT .../by-slug/x answered 500`.
 */
export class Blocked extends Error {
  constructor(
    readonly rootCause: string,
    /** rootCheck: the check that owns the endpoint (core/api/endpoints.ts), the root as data; detail: this check's own request and answer. */
    readonly about: { rootCheck: string; detail?: string; exchange?: Exchange; owner?: BlockedRoot["owner"] },
  ) {
    super(`blocked by ${rootCause}${about.detail ? ` (${about.detail})` : ""}`);
  }
}

export function show(v: unknown): string {
  if (typeof v === "string") return v;
  // Never the bare word: an absent value is said so, in expected and got alike.
  if (v === undefined) return "absent (no value)";
  try {
    const s = JSON.stringify(v);
    return s.length > 600 ? s.slice(0, 600) + "…" : s;
  } catch {
    return String(v);
  }
}
