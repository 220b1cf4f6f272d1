import { NOT_CONFIRMED } from "./ownership.js";

/**
 * What a run leaves on the server, as every output says it. A leftover is a line of the report
 * (report.json `leftovers`): a thing the run made or changed and could not remove or put back, with
 * the request that would; or a place where a cleanup or the sweep could not finish, where what is
 * left is not known. Each of these fails the run (core/run/gate.ts): a tenant left changed is the
 * tester's broken promise, never a pass. One kind is told and fails nothing: an object the ledger
 * would not remove because no read-back confirmed it as the run's (NOT_CONFIRMED). The run kept its
 * hands off what may be another's; the line names it with the request that would remove it.
 */

/** How a leftover ends when what the run left cannot be known: a list that could not be read, a cleanup or sweep that failed. */
const NOT_KNOWN = "what the run left there is not known";

/** The leftover of a cleanup or sweep that could not finish: not a thing known to be left, and said so in every report. */
export const notKnown = (what: string) => `${what}: ${NOT_KNOWN}`;

const isNotKnown = (leftover: string) => leftover.endsWith(NOT_KNOWN);

/** Whether a leftover fails the run: all but an object not confirmed as the run's, which it would not remove. */
export const failsTheRun = (leftover: string) => !leftover.startsWith(NOT_CONFIRMED);

/** The workspace item a leftover line names (`REPORT 226 … in deployment 1 …`), as the ledger and the sweep both write it. */
const ITEM = /^(WORKBOOK|FOLDER|REPORT) (\d+)\b.*? in deployment (\S+?)[\s,;:()]/;

/**
 * Each thing once: a cleanup that could not delete an item says so, and the sweep at the end finds
 * the same item again (with the request that removes it). The later line of an item is kept, in
 * its place; lines that name no workspace item are kept as they are.
 */
export function onePerThing(leftovers: readonly string[]): string[] {
  const subject = (l: string) => {
    const m = ITEM.exec(l);
    return m ? `${m[1]} ${m[2]} in deployment ${m[3]}` : l;
  };
  const last = new Map(leftovers.map((l, i) => [subject(l), i]));
  return leftovers.filter((l, i) => last.get(subject(l)) === i);
}

/**
 * What a run left on the server, in the words of every output: "3 things (1 WORKBOOK, 1 FOLDER, 1
 * not confirmed as the run's)". Where a cleanup or the sweep could not finish, what is left there
 * is not known: said so, never counted as a thing left ("not known in 1 place").
 */
export function leftoversSaid(leftovers: readonly string[]): string {
  const unique = [...new Set(leftovers)];
  const known = unique.filter((l) => !isNotKnown(l));
  const unknown = unique.length - known.length;
  return [
    known.length ? `${known.length} thing${known.length === 1 ? "" : "s"} (${leftoverKinds(known)})` : "",
    unknown ? `not known in ${unknown} place${unknown === 1 ? "" : "s"}` : "",
  ]
    .filter(Boolean)
    .join("; ");
}

/** Each kind of leftover by how its line begins (core/ledger/scratch.ts, sweep.ts, door-entries.ts): the first that matches. */
const KINDS: [RegExp, (m: RegExpExecArray) => string][] = [
  [new RegExp(`^${NOT_CONFIRMED}`), () => "not confirmed as the run's"],
  [/^(WORKBOOK|FOLDER|REPORT)\b/, (m) => m[1]],
  [/^could not restore /, () => "not put back"],
  [/^could not remove /, () => "not removed"],
  [/^environment variable /, () => "environment variable"],
  [/^(\/\S+)/, (m) => m[1].replace(/\/\d+$/, "")],
];

function kindOf(leftover: string): string {
  for (const [pattern, name] of KINDS) {
    const m = pattern.exec(leftover);
    if (m) return name(m);
  }
  return "other";
}

/** The kinds of what a run left, counted: "3 WORKBOOK, 1 FOLDER, 2 not confirmed as the run's, 1 not put back". */
function leftoverKinds(leftovers: string[]): string {
  const kinds = new Map<string, number>();
  for (const l of leftovers) {
    const kind = kindOf(l);
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return [...kinds].map(([k, n]) => `${n} ${k}`).join(", ");
}
