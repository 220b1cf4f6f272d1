import { NOT_CONFIRMED } from "./ownership.js";

/**
 * What a run leaves on the server, as every output says it. A leftover is a line of the report
 * (report.json `leftovers`): a thing the run made or changed and could not remove or put back, with
 * the request that would; or a place where a cleanup or the sweep could not finish, where what is
 * left is not known. Any of them fails the run (core/run/gate.ts): a tenant left changed is the
 * tester's broken promise, never a pass.
 */

/** How a leftover ends when what the run left cannot be known: a list that could not be read, a cleanup or sweep that failed. */
const NOT_KNOWN = "what the run left there is not known";

/** The leftover of a cleanup or sweep that could not finish: not a thing known to be left, and said so in every report. */
export const notKnown = (what: string) => `${what}: ${NOT_KNOWN}`;

const isNotKnown = (leftover: string) => leftover.endsWith(NOT_KNOWN);

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

/** The kinds of what a run left, counted: "3 WORKBOOK, 1 FOLDER, 2 not confirmed as the run's". */
function leftoverKinds(leftovers: string[]): string {
  const kinds = new Map<string, number>();
  for (const l of leftovers) {
    const kind = l.startsWith(NOT_CONFIRMED)
      ? "not confirmed as the run's"
      : (/^(WORKBOOK|FOLDER|REPORT)\b/.exec(l)?.[1] ?? (/^(\/\S+)/.exec(l)?.[1] ?? "other").replace(/\/\d+$/, ""));
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return [...kinds].map(([k, n]) => `${n} ${k}`).join(", ");
}
