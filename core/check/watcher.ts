import type { Exchange, FullAnswer } from "../transport/http.js";
import type { ReasonKey } from "../model/reasons.js";
import type { Schemas } from "../api/schemas.js";

/** One exchange as an invariant reads it: the report's redacted exchange, and the whole answer. */
export interface Observed extends FullAnswer {
  exchange: Exchange;
}

/** What broke the rule on one exchange. `hide`: values that must not reach the report (a leaked secret). */
export interface Violation {
  reason: ReasonKey;
  message: string;
  expected: unknown;
  got: unknown;
  hide?: string[];
  /**
   * What makes two violations one defect, where the message and got do not tell it (generated
   * bodies break a schema at ever other places): violations with the same key are counted as one.
   */
  defect?: string;
}

/** undefined: the exchange is none of the rule's business; "held": it applied and held. */
export type Observation = undefined | "held" | Violation;

/** A fresh observer for each run: what it learns (the secrets the run set) lives in its closure. */
export type Watcher = (schemas: Schemas) => (x: Observed) => Observation;
