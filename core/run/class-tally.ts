import { INPUT_DOMAINS, type InputDomain } from "../api/input-domain.js";
import { matchOperation } from "../api/match.js";
import { SPECIFIED_OPERATIONS } from "../api/operations.js";
import type { Exchange, FullAnswer } from "../transport/http.js";

/**
 * Measured, not declared (issue 29, section 4): which classes of each input of the table
 * (core/api/input-domain.ts) the run sent, and through which checks. The run's transport feeds it
 * every exchange through its `observe` hook; at the end, a class sent by a check that reached a
 * verdict (passed or failed) was judged. A class that cannot be told from the request alone (an id
 * "of another deployment", a filter value "a prefix of a stored one") is counted as not measured,
 * never as judged.
 */

/** `operation field` of an input: the key the tally and the report use. */
export const inputKey = (d: Pick<InputDomain, "operation" | "field">) => `${d.operation} ${d.field}`;

const DOMAINS_BY_OP = new Map<string, InputDomain[]>();
for (const d of INPUT_DOMAINS) DOMAINS_BY_OP.set(d.operation, [...(DOMAINS_BY_OP.get(d.operation) ?? []), d]);

/** The values an input took in one request: a pointer ending in `/*` names every value of the map at its parent. */
function valuesOf(d: InputDomain, url: URL, params: Record<string, string>, body: () => unknown): unknown[] {
  if (d.at === "path") return d.field in params ? [safeDecode(params[d.field])] : [];
  if (d.at === "query") return url.searchParams.getAll(d.field);
  let node: unknown = body();
  const tokens = d.field.split("/").slice(1);
  for (const [i, t] of tokens.entries()) {
    if (node === null || typeof node !== "object") return [];
    if (t === "*" && i === tokens.length - 1) return Object.values(node as object);
    if (!(t in (node as object))) return [];
    node = (node as Record<string, unknown>)[t];
  }
  return [node];
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** One input's figures: its classes, which were sent, which judged, which the spec rules out. */
export interface InputCoverage {
  input: string;
  section: string;
  classes: { name: string; sent: number; judgedBy: string[]; ruledOut?: string; measurable: boolean }[];
}

export interface ClassCoverage {
  inputs: InputCoverage[];
  /** Per check: the input classes its exchanges sent ("E3 /expires_in: far-beyond-cap"). */
  byRule: Record<string, string[]>;
  /** Classes judged over the measurable classes not ruled out, in percent. */
  percent: number;
  judged: number;
  measurable: number;
}

export class ClassTally {
  /** `input\u0000class` → requests that sent it. */
  private readonly sent = new Map<string, number>();
  /** `input\u0000class` → the checks whose requests sent it. */
  private readonly senders = new Map<string, Set<string>>();

  see(exchange: Exchange, answer: FullAnswer | undefined, checkId?: string): void {
    if (!answer) return;
    const hit = matchOperation(SPECIFIED_OPERATIONS, exchange.method, answer.url.pathname);
    const domains = hit && DOMAINS_BY_OP.get(hit.operation.name);
    if (!domains) return;
    let parsed: unknown;
    const body = () => {
      if (parsed === undefined && answer.requestBody) {
        try {
          parsed = JSON.parse(answer.requestBody);
        } catch {
          parsed = null;
        }
      }
      return parsed;
    };
    for (const d of domains)
      for (const v of valuesOf(d, answer.url, hit.params, body))
        for (const c of d.classes)
          if (c.holds(queryValue(d, v, c.holds))) {
            const key = `${inputKey(d)}\u0000${c.name}`;
            this.sent.set(key, (this.sent.get(key) ?? 0) + 1);
            if (checkId) this.senders.set(key, (this.senders.get(key) ?? new Set()).add(checkId));
          }
  }

  /** The figures, judged by the checks' results: a class counts as judged when a check that sent it reached a verdict. */
  coverage(results: { id: string; status: string }[]): ClassCoverage {
    const verdict = new Set(results.filter((r) => r.status === "passed" || r.status === "failed").map((r) => r.id));
    const byRule: Record<string, string[]> = {};
    let judged = 0;
    let measurable = 0;
    const inputs = INPUT_DOMAINS.map((d): InputCoverage => {
      const classes = d.classes.map((c) => {
        const key = `${inputKey(d)}\u0000${c.name}`;
        const senders = [...(this.senders.get(key) ?? [])].sort();
        for (const id of senders) (byRule[id] ??= []).push(`${d.section} ${d.field}: ${c.name}`);
        const judgedBy = senders.filter((id) => verdict.has(id));
        // A class with no edges and a classifier that holds nothing is found by the run, not told from a request.
        const canTell = c.edges.length > 0;
        if (canTell && !c.ruledOut) {
          measurable++;
          if (judgedBy.length) judged++;
        }
        return { name: c.name, sent: this.sent.get(key) ?? 0, judgedBy, ruledOut: c.ruledOut, measurable: canTell };
      });
      return { input: inputKey(d), section: d.section, classes };
    });
    return { inputs, byRule, judged, measurable, percent: measurable ? Math.round((1000 * judged) / measurable) / 10 : 100 };
  }
}

/** A query parameter arrives as text: a number class is judged on the number it spells. */
function queryValue(d: InputDomain, v: unknown, holds: (x: unknown) => boolean): unknown {
  if (d.at === "body" || typeof v !== "string" || holds(v)) return v;
  return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
}

/** The class coverage as markdown: one line per input, a figure per group of inputs (section). */
export function classCoverageMarkdown(c: ClassCoverage): string {
  const lines = [
    `Input classes judged: ${c.judged} of ${c.measurable} measurable classes not ruled out (${c.percent}%).`,
    "",
    "| input | class | sent | judged by | ruled out by |",
    "|---|---|---|---|---|",
  ];
  for (const i of c.inputs)
    for (const k of i.classes)
      lines.push(
        `| ${i.section} ${i.input.split(" ").slice(1).join(" ")} | ${k.name} | ${k.measurable ? k.sent : "not measured"} | ${k.judgedBy.slice(0, 4).join(", ")}${k.judgedBy.length > 4 ? ", …" : ""} | ${k.ruledOut ?? ""} |`,
      );
  return lines.join("\n");
}
