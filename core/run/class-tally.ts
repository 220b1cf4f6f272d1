import { parse } from "csv-parse/sync";
import { INPUT_DOMAINS, type InputDomain, type Seen } from "../api/input-domain.js";
import { matchOperation } from "../api/match.js";
import { OPERATIONS, readerOf } from "../api/operations.js";
import type { Exchange, FullAnswer } from "../transport/http.js";
import { RunKnowledge } from "./run-knowledge.js";

/**
 * Measured, not declared (issue 29, section 4): which classes of each input of the table
 * (core/api/input-domain.ts) the run sent, and through which checks. The run's transport feeds it
 * every exchange through its `observe` hook; at the end, a class sent by a check that reached a
 * verdict (passed or failed) was judged. A class that is a fact about the server's state (an id of
 * another deployment, a prefix of a stored email) is told from what the run had been answered
 * before it sent the value (core/run/run-knowledge.ts).
 */

/** `operation field` of an input: the key the tally and the report use. */
export const inputKey = (d: Pick<InputDomain, "operation" | "field">) => `${d.operation} ${d.field}`;

const DOMAINS_BY_OP = new Map<string, InputDomain[]>();
for (const d of INPUT_DOMAINS) DOMAINS_BY_OP.set(d.operation, [...(DOMAINS_BY_OP.get(d.operation) ?? []), d]);
/**
 * Where a write's stored values are read: the row that reads its record (E6's settings, the env-vars
 * list), else its own answers. A value is classed against what was read there before it was sent.
 */
const readAt = (name: string): string => {
  const op = OPERATIONS.find((o) => o.name === name);
  return (op && op.method !== "GET" && readerOf(op)?.name) || name;
};
/** The operations whose answers' values a filter or stored input is classed against: the only ones whose strings are kept. */
const KEEPS_STRINGS = new Set(INPUT_DOMAINS.filter((d) => d.classes.some((c) => c.byRun === "stored")).map((d) => readAt(d.operation)));

/**
 * The values an input took in one request: `*` in a pointer names every value of the map or every
 * item of the array there (each variable's value of a PUT env-vars); a body field the request left out took
 * `undefined` (the class "absent" of an optional field).
 */
function valuesOf(d: InputDomain, url: URL, params: Record<string, string>, body: () => unknown): unknown[] {
  if (d.at === "path") return d.field in params ? [safeDecode(params[d.field])] : [];
  if (d.at === "query") return url.searchParams.getAll(d.field);
  const tokens = d.field.split("/").slice(1);
  const below = (node: unknown, i: number): unknown[] => {
    if (i === tokens.length) return [node];
    if (node === undefined) return [undefined];
    if (node === null || typeof node !== "object") return [];
    const t = tokens[i];
    if (t === "*") return Object.values(node as object).flatMap((n) => (i === tokens.length - 1 ? [n] : below(n, i + 1)));
    // `name|firstName`: the property as a served document spells it, among these names (case-insensitively, as a served body's hints).
    const names = t.toLowerCase().split("|");
    const key = t.includes("|") ? Object.keys(node as object).find((k) => names.includes(k.toLowerCase())) : t;
    return below(key === undefined ? undefined : (node as Record<string, unknown>)[key], i + 1);
  };
  return below(body(), 0);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Where a class stands after the run: judged by a check's verdict, sent without one, not sent (and why, where the run may never send it). */
export interface ClassFigure {
  name: string;
  sent: number;
  judgedBy: string[];
  ruledOut?: string;
  /** Why the run does not exercise it (core/api/input-domain.ts, `notExercised`): a gap said, which test/class-coverage.test.ts holds to the run. */
  notExercised?: string;
}

/** One input's figures: its classes, which were sent, which judged, which the spec rules out. */
export interface InputCoverage {
  input: string;
  section: string;
  classes: ClassFigure[];
}

/** A group's figure (E1-E14): its classes not ruled out, and how many of them a check judged. */
export interface GroupFigure {
  group: string;
  judged: number;
  classes: number;
  ruledOut: number;
}

export interface ClassCoverage {
  inputs: InputCoverage[];
  groups: GroupFigure[];
  /** Per check: the input classes its exchanges sent ("E3 /expires_in: far-beyond-cap"). */
  byRule: Record<string, string[]>;
  /** Per check: the sections its requests reached, and `<section> page>1` for a later page of a list (a cursor a page gave, an offset past 0). */
  reached: Record<string, string[]>;
  /** Classes judged over the classes not ruled out, in percent. */
  percent: number;
  judged: number;
  measurable: number;
}

/** A class is covered when a check judged it or the spec rules it out; anything else is a gap. */
export const covered = (c: ClassFigure) => c.judgedBy.length > 0 || c.ruledOut !== undefined;

export class ClassTally {
  /** `input\u0000class` → requests that sent it. */
  private readonly sent = new Map<string, number>();
  /** `input\u0000class` → the checks whose requests sent it. */
  private readonly senders = new Map<string, Set<string>>();
  private readonly reached = new Map<string, Set<string>>();
  private readonly known = new RunKnowledge();

  see(exchange: Exchange, answer: FullAnswer | undefined, checkId?: string): void {
    // A streamed answer (the audit export) is observed without its body: its request is classed all the same.
    const url = answer?.url ?? new URL(exchange.url);
    const hit = matchOperation(OPERATIONS, exchange.method, url.pathname);
    if (!hit) return;
    const name = hit.operation.name;
    const dep = hit.params.deploymentId === undefined ? undefined : safeDecode(hit.params.deploymentId);
    const seen = this.known.seenBy(readAt(name), dep);
    if (checkId) this.reach(checkId, hit.operation.section, url, seen);
    const domains = DOMAINS_BY_OP.get(name) ?? [];
    let parsed: unknown;
    const requestBody = answer?.requestBody ?? exchange.requestBody;
    const body = () => {
      if (parsed === undefined && requestBody) {
        try {
          parsed = JSON.parse(requestBody);
        } catch {
          parsed = null;
        }
      }
      return parsed;
    };
    for (const d of domains)
      for (const v of valuesOf(d, url, hit.params, body))
        for (const c of d.classes)
          if (
            c.holds(
              queryValue(d, v, (x) => c.holds(x, seen)),
              seen,
            )
          ) {
            const key = `${inputKey(d)}\u0000${c.name}`;
            this.sent.set(key, (this.sent.get(key) ?? 0) + 1);
            if (checkId) this.senders.set(key, (this.senders.get(key) ?? new Set()).add(checkId));
          }
    if (answer && answer.status < 300 && (exchange.method === "DELETE" || /^bulkDelete/.test(name))) this.known.forget(name, hit.params, body());
    else if (answer?.isJson && answer.status < 300) this.known.learn(name, dep, answer.body, KEEPS_STRINGS.has(name));
  }

  /** A streamed answer's head (the audit export's CSV): the values it holds are what its filters are classed against. */
  seeStreamed(exchange: Exchange, head: string, whole: boolean): void {
    const hit = matchOperation(OPERATIONS, exchange.method, new URL(exchange.url).pathname);
    if (!hit || !(exchange.status! < 300) || !KEEPS_STRINGS.has(hit.operation.name)) return;
    // A head cut short ends in a part of a line: its cells are no stored values.
    const text = whole ? head : head.slice(0, head.lastIndexOf("\n") + 1);
    const rows: string[][] = parse(text, { relax_column_count: true, relax_quotes: true, skip_records_with_error: true });
    this.known.learnStrings(hit.operation.name, rows.flat());
  }

  /** The section a check's request reached, and whether it asked a later page of a list. */
  private reach(checkId: string, section: string, url: URL, seen: Seen): void {
    const at = this.reached.get(checkId) ?? new Set<string>();
    this.reached.set(checkId, at.add(section));
    const after = url.searchParams.get("after");
    const offset = Number(url.searchParams.get("offset") ?? 0);
    if ((after !== null && seen.cursor(after)) || offset > 0) at.add(`${section} page>1`);
  }

  /** The figures, judged by the checks' results: a class counts as judged when a check that sent it reached a verdict. */
  coverage(results: { id: string; status: string }[]): ClassCoverage {
    const verdict = new Set(results.filter((r) => r.status === "passed" || r.status === "failed").map((r) => r.id));
    const byRule: Record<string, string[]> = {};
    const groups = new Map<string, GroupFigure>();
    const inputs = INPUT_DOMAINS.map((d): InputCoverage => {
      const group = d.section.split(" ")[0];
      const figure = groups.get(group) ?? { group, judged: 0, classes: 0, ruledOut: 0 };
      groups.set(group, figure);
      const classes = d.classes.map((c): ClassFigure => {
        const key = `${inputKey(d)}\u0000${c.name}`;
        const senders = [...(this.senders.get(key) ?? [])].sort();
        for (const id of senders) (byRule[id] ??= []).push(`${d.section} ${d.field}: ${c.name}`);
        const judgedBy = senders.filter((id) => verdict.has(id));
        if (c.ruledOut) figure.ruledOut++;
        else {
          figure.classes++;
          if (judgedBy.length) figure.judged++;
        }
        return {
          name: c.name,
          sent: this.sent.get(key) ?? 0,
          judgedBy,
          ...(c.ruledOut ? { ruledOut: c.ruledOut } : {}),
          ...(d.notExercised?.[c.name] ? { notExercised: d.notExercised[c.name] } : {}),
        };
      });
      return { input: inputKey(d), section: d.section, classes };
    });
    const all = [...groups.values()];
    const judged = all.reduce((n, g) => n + g.judged, 0);
    const measurable = all.reduce((n, g) => n + g.classes, 0);
    const reached = Object.fromEntries([...this.reached].map(([id, at]) => [id, [...at].sort()]));
    return { inputs, groups: all, byRule, reached, judged, measurable, percent: measurable ? Math.round((1000 * judged) / measurable) / 10 : 100 };
  }
}

/** A query parameter arrives as text: a number class is judged on the number it spells. */
function queryValue(d: InputDomain, v: unknown, holds: (x: unknown) => boolean): unknown {
  if (d.at === "body" || typeof v !== "string" || holds(v)) return v;
  return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
}

/** The class coverage as markdown: the figure per group, then one line per class of each input. */
export function classCoverageMarkdown(c: ClassCoverage): string {
  const lines = [
    `Input classes judged: ${c.judged} of the ${c.measurable} classes the spec does not rule out (${c.percent}%).`,
    "",
    "| group | judged | classes not ruled out | ruled out by the spec |",
    "|---|---|---|---|",
    ...c.groups.map((g) => `| ${g.group} | ${g.judged} | ${g.classes} | ${g.ruledOut} |`),
    "",
    "| input | class | sent | judged by | ruled out by | gap |",
    "|---|---|---|---|---|---|",
  ];
  for (const i of c.inputs)
    for (const k of i.classes)
      lines.push(
        `| ${i.section} ${i.input.split(" ").slice(1).join(" ")} | ${k.name} | ${k.sent} | ${k.judgedBy.slice(0, 4).join(", ")}${k.judgedBy.length > 4 ? ", …" : ""} | ${k.ruledOut ?? ""} | ${covered(k) ? "" : `${k.sent ? "sent, no check judged it" : "not sent"}${k.notExercised ? `: ${k.notExercised}` : ""}`} |`,
      );
  return lines.join("\n");
}
