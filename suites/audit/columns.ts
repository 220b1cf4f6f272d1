/**
 * The columns of the audit export are not shown in the spec, so they are found by what their
 * cells hold, never by a guessed header name alone: a column of email addresses is the user's, a
 * column of ISO 8601 dates the time, a column holding `Logged in` (the one event type the spec
 * names) the event's. A header name only breaks a tie, or, for the event column, names a
 * candidate whose filter is then not judged when it finds nothing.
 */

export const EMAIL = /[^\s<>"',;()]+@[^\s<>"',;()]+/;
/** An ISO 8601 date at the start of the cell, with or without a time and an offset. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}|$)/;
/** The event type the spec names (Events). */
const NAMED_EVENT = "logged in";
/** Of the non-empty cells of a column, the share that must look alike for the column to be that kind. */
const SHARE = 0.9;

const HINT = {
  event: /event|action/i,
  user: /e-?mail|user/i,
  time: /timestamp|time|date/i,
};

export interface EventColumn {
  index: number;
  /** "content": it holds the event type the spec names; "header": only its name suggests it. */
  by: "content" | "header";
}

export interface AuditColumns {
  event?: EventColumn;
  user?: number;
  time?: number;
}

export const emailIn = (cell: string | undefined) => EMAIL.exec(cell ?? "")?.[0];

/** The instant a time cell shows, or NaN where it is no ISO 8601 date-time. */
export function instantOf(cell: string | undefined): number {
  const text = (cell ?? "").trim();
  return ISO_DATE.test(text) ? Date.parse(text.replace(" ", "T")) : NaN;
}

function looksLike(rows: string[][], index: number, like: (cell: string) => boolean): boolean {
  const cells = rows.map((r) => (r[index] ?? "").trim()).filter(Boolean);
  return cells.length > 0 && cells.filter(like).length >= SHARE * cells.length;
}

/** The one column among `candidates`, a header hint breaking a tie; undefined when none or still several. */
function one(header: string[], candidates: number[], hint: RegExp): number | undefined {
  if (candidates.length === 1) return candidates[0];
  const hinted = candidates.filter((i) => hint.test(header[i] ?? ""));
  return hinted.length === 1 ? hinted[0] : undefined;
}

export function findColumns(header: string[], rows: string[][]): AuditColumns {
  const all = header.map((_, i) => i);
  const user = one(
    header,
    all.filter((i) => looksLike(rows, i, (c) => !!emailIn(c))),
    HINT.user,
  );
  const time = one(
    header,
    all.filter((i) => looksLike(rows, i, (c) => Number.isFinite(instantOf(c)))),
    HINT.time,
  );
  const rest = all.filter((i) => i !== user && i !== time);
  const named = rest.filter((i) => rows.some((r) => (r[i] ?? "").trim().toLowerCase() === NAMED_EVENT));
  const byContent = one(header, named, HINT.event);
  if (byContent !== undefined) return { user, time, event: { index: byContent, by: "content" } };
  const byHeader = one(
    header,
    rest.filter((i) => HINT.event.test(header[i] ?? "")),
    HINT.event,
  );
  return { user, time, event: byHeader === undefined ? undefined : { index: byHeader, by: "header" } };
}
