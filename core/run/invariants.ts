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

/** Distinct violations kept per invariant: the first is the verdict's, the others are listed beside it. */
const KEPT_DEFECTS = 6;

interface Defect {
  violation: Violation;
  exchange: Exchange;
  /** Answers that showed it. */
  seen: number;
}

interface State {
  check: Check;
  observe: (x: Observed) => Observation;
  applied: number;
  /** By defectKey, in the order first seen. */
  defects: Map<string, Defect>;
  /** Violations of defects past KEPT_DEFECTS. */
  more: number;
  error?: string;
}

/**
 * What tells two violations apart as two defects: the key the invariant gives, else the rule
 * broken and where, not which item of a list showed it (array indexes in the JSON pointers of
 * `got` are one place for every item).
 */
const defectKey = (v: Violation) => `${v.reason}|${v.defect ?? `${v.message}|${show(v.got).replace(/\/\d+(?=[/\s;,]|$)/g, "/*")}`}`;

/** The defects besides the first, as a clause of the verdict's message. */
function others(defects: Defect[], more: number): string {
  if (defects.length < 2) return "";
  const listed = defects.slice(1).map(({ violation: v, exchange, seen }) => {
    // The path alone (a redacted URL need not parse): the origin is the run's, the query a case's.
    const where = `${exchange.method} ${exchange.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "").split("?")[0]}`;
    return `${v.message} (${show(v.got).slice(0, 200)}; ${where}${seen > 1 ? `, ${seen} answers` : ""})`;
  });
  const beyond = more ? `; and ${more} answer(s) with still other defects` : "";
  return `. ${defects.length - 1} other distinct defect(s) of the same rule: ${listed.join("; ")}${beyond}`;
}

/** The invariants of one run: fed every exchange, then each gives its verdict. */
export class InvariantWatch {
  private readonly states: State[];
  private seen = 0;

  constructor(checks: Check[], schemas: Schemas) {
    this.states = checks.filter(isInvariant).map((check) => ({ check, observe: check.watch!(schemas), applied: 0, defects: new Map(), more: 0 }));
  }

  get size(): number {
    return this.states.length;
  }

  see(exchange: Exchange, answer: FullAnswer | undefined): void {
    if (!answer || !this.states.length) return;
    this.seen++;
    const x: Observed = { ...answer, exchange };
    for (const s of this.states) {
      if (s.error) continue;
      try {
        const verdict = s.observe(x);
        if (verdict === undefined) continue;
        s.applied++;
        if (verdict === "held") continue;
        // The first violation is the verdict's; each other defect of the rule is listed beside it, so that fixing one does not reveal the next.
        const key = defectKey(verdict);
        const known = s.defects.get(key);
        if (known) known.seen++;
        else if (s.defects.size < KEPT_DEFECTS) s.defects.set(key, { violation: verdict, exchange: hidden(exchange, verdict.hide ?? []), seen: 1 });
        else s.more++;
      } catch (err) {
        s.error = `tester error: ${(err as Error)?.stack ?? String(err)}`;
      }
    }
  }

  results(): CheckResult[] {
    return this.states.map(({ check, applied, defects, more, error }) => {
      const base = { id: check.id, group: check.group, title: check.title, spec: check.spec, level: check.level, kind: check.kind, durationMs: 0, requests: 0 };
      if (error) return { ...base, status: "errored", message: error };
      const found = [...defects.values()];
      if (found.length) {
        const { violation: v, exchange } = found[0];
        const hide = found.flatMap((d) => d.violation.hide ?? []);
        return {
          ...base,
          status: "failed",
          message: scrub(v.message + others(found, more), hide),
          reason: v.reason,
          expected: show(v.expected),
          got: show(v.got),
          exchange,
          curl: exchange.curl,
          exchanges: found.map((d) => d.exchange),
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

function scrub<T extends string | undefined>(s: T, values: string[]): T {
  return (s === undefined ? s : values.reduce((out, v) => out.split(v).join("[REDACTED]"), s)) as T;
}

function hidden(exchange: Exchange, values: string[]): Exchange {
  if (!values.length) return exchange;
  return {
    ...exchange,
    url: scrub(exchange.url, values),
    requestBody: scrub(exchange.requestBody, values),
    responseExcerpt: scrub(exchange.responseExcerpt, values),
    curl: scrub(exchange.curl, values),
  };
}
