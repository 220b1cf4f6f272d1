import type { Check, CheckSpec } from "../check/check.js";
import type { Exchange, FullAnswer } from "../transport/http.js";
import type { Observation, Observed, Violation } from "../check/watcher.js";
import { show } from "../model/outcome.js";
import type { CheckResult } from "./result.js";
import type { Schemas } from "../api/schemas.js";

export type { Observed, Violation, Watcher } from "../check/watcher.js";

/**
 * Rules that hold for every answer (secret masking, deployment scoping, schemas, timestamps, no
 * 5xx) are not checked where one example happens to look: each is an invariant, a catalogue check
 * of kind "invariant" that watches every exchange of the run (discovery, examples, properties,
 * cleanup), the way a validating proxy sees all traffic. It observes what the selected checks
 * send: `--check`/`--group` choose the traffic, and an invariant with nothing to judge in it is
 * not exercised.
 */

export type InvariantSpec = Omit<CheckSpec, "run" | "kind" | "needs" | "watch" | "applicable"> & Required<Pick<CheckSpec, "watch" | "applicable">>;

/** Declares an invariant as a catalogue check (its group is the part of its id before the first dot). */
export function invariant(spec: InvariantSpec): CheckSpec {
  return {
    ...spec,
    kind: "invariant",
    async run() {
      throw new Error(`${spec.id} is an invariant: the runner feeds it the run's exchanges, it is never run`);
    },
  };
}

export const isInvariant = (c: Pick<Check, "kind">) => c.kind === "invariant";

interface State {
  check: Check;
  observe: (x: Observed) => Observation;
  applied: number;
  first?: { violation: Violation; exchange: Exchange };
  error?: string;
}

/** The invariants of one run: fed every exchange, then each gives its verdict. */
export class InvariantWatch {
  private readonly states: State[];
  private seen = 0;

  constructor(checks: Check[], schemas: Schemas) {
    this.states = checks.filter(isInvariant).map((check) => ({ check, observe: check.watch!(schemas), applied: 0 }));
  }

  get size(): number {
    return this.states.length;
  }

  see(exchange: Exchange, answer: FullAnswer | undefined): void {
    if (!answer || !this.states.length) return;
    this.seen++;
    const x: Observed = { ...answer, exchange };
    for (const s of this.states) {
      // The first violation is the one reported; the rest of the run cannot change the verdict.
      if (s.first || s.error) continue;
      try {
        const verdict = s.observe(x);
        if (verdict === undefined) continue;
        s.applied++;
        if (verdict !== "held") s.first = { violation: verdict, exchange: hidden(exchange, verdict.hide ?? []) };
      } catch (err) {
        s.error = `tester error: ${(err as Error)?.stack ?? String(err)}`;
      }
    }
  }

  results(): CheckResult[] {
    return this.states.map(({ check, applied, first, error }) => {
      const base = { id: check.id, group: check.group, title: check.title, spec: check.spec, level: check.level, kind: check.kind, durationMs: 0, requests: 0 };
      if (error) return { ...base, status: "errored", message: error };
      if (first) {
        const { violation: v, exchange } = first;
        return {
          ...base,
          status: "failed",
          message: v.message,
          reason: v.reason,
          expected: show(v.expected),
          got: show(v.got),
          exchange,
          curl: exchange.curl,
          exchanges: [exchange],
        };
      }
      if (!applied)
        return {
          ...base,
          status: "skipped",
          skipKind: "not-exercised",
          message: `not exercised: no answer carried ${check.applicable} (${this.seen} exchanges observed)`,
        };
      return { ...base, status: "passed", message: `held on ${applied} of ${this.seen} exchanges` };
    });
  }
}

function hidden(exchange: Exchange, values: string[]): Exchange {
  if (!values.length) return exchange;
  const scrub = (s: string | undefined) => (s === undefined ? s : values.reduce((out, v) => out.split(v).join("[REDACTED]"), s));
  return {
    ...exchange,
    url: scrub(exchange.url)!,
    requestBody: scrub(exchange.requestBody),
    responseExcerpt: scrub(exchange.responseExcerpt),
    curl: scrub(exchange.curl)!,
  };
}
