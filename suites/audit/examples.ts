import { group } from "../../core/check/check.js";
import type { Response } from "../../core/transport/http.js";
import type { CheckContext } from "../../core/check/context.js";
import { statusLine } from "../../core/api/expect.js";
import { CheckFailure, NotExercised } from "../../core/model/outcome.js";
import type { ReasonKey } from "../../core/model/reasons.js";
import { EMAIL, emailIn, findColumns, instantOf, type AuditColumns, type EventColumn } from "./columns.js";
import { peek, scanCsv, type Streamed } from "../lib/streamed.js";
import { pathTo } from "../../core/transport/client.js";
import { AUDIT_NEEDS } from "./needs.js";

export const EXPORT = pathTo("exportAuditLog");
/** Rows held at once: of an unfiltered export to choose filter values from, of a filtered one to compare. */
const SAMPLE = 2000;
const SCAN = 200_000; // Rows of an unfiltered export searched for a filtered export's rows before the comparison is let go.
export const DAY = 86_400_000;
const CSV_TYPE = /^\s*(text|application)\/(x-)?csv\s*(;|$)/i;

/** E7 (a CSV file): the export's content type says CSV. */
export function expectCsvLabel(ctx: CheckContext, res: Response, what: string): void {
  const type = res.headers["content-type"];
  ctx.expect.that(CSV_TYPE.test(type ?? ""), what, { reason: "content-type", expected: "content-type text/csv", got: type ?? "no content-type", res });
}

type Query = Record<string, string>;

interface Export {
  header: string[];
  /** At most SAMPLE rows, in order. */
  rows: string[][];
  answer: Streamed;
}

export const label = (query: Query) =>
  Object.entries(query)
    .map(([k, v]) => `${k}=${v}`)
    .join("&") || "unfiltered";
export const rowKey = (row: string[]) => JSON.stringify(row);

export function failOn(answer: Streamed, what: string, detail: { expected?: unknown; got?: unknown; reason?: ReasonKey }): never {
  throw new CheckFailure(what, { ...detail, exchange: answer.exchange });
}

/**
 * The export as the main token gets it. A 403 is the plan or the token's permission (the user's
 * setup: skipped; features.auditLog false skips without asking); unfiltered, any other failure
 * blocks the check (the export is its starting point), filtered, a missing route does.
 */
export async function openExport(ctx: CheckContext, query: Query = {}): Promise<Streamed> {
  const answer = await ctx.api.stream(EXPORT, query);
  if (answer.status === 200) return answer;
  const res = await peek(answer);
  const what = `the ${label(query)} audit log export (if the plan has no audit log, declare features.auditLog false)`;
  if (!Object.keys(query).length) ctx.require(res, "E7", what, () => false);
  ctx.requireRoute(res, "E7", what);
  return ctx.expect.fail(`the ${label(query)} audit log export answered ${res.status}`, {
    expected: "200 with a CSV file",
    got: statusLine(res),
    res,
    reason: "export-answered",
  });
}

/** For checks that expect a refusal: with the feature off every request is refused, which would prove nothing. */
export async function requireFeature(ctx: CheckContext): Promise<void> {
  await peek(await openExport(ctx));
}

/** The header and the first SAMPLE rows of a 200 export, parsed as they stream. */
export async function readExport(answer: Streamed, query: Query): Promise<Export> {
  let header: string[] | undefined;
  const rows: string[][] = [];
  await scanCsv(answer, (record, i) => {
    if (i === 0) header = record;
    else rows.push(record);
    return rows.length < SAMPLE;
  });
  if (!header) failOn(answer, `the ${label(query)} export has no header row`, { reason: "no-header", expected: "a header row", got: "an empty body" });
  return { header, rows, answer };
}

/** The column of that kind, found by content (lib/audit-columns); unidentified, or without rows, the filter is not exercised. */
export function column(exp: Export, kind: "user" | "time"): number;
export function column(exp: Export, kind: "event"): EventColumn;
export function column(exp: Export, kind: keyof AuditColumns): number | EventColumn {
  if (!exp.rows.length) throw new NotExercised("the audit export has no rows to choose a filter value from");
  const found = findColumns(exp.header, exp.rows.slice(0, SAMPLE))[kind];
  if (found === undefined) throw new NotExercised(`no column of the export (${exp.header.join(", ")}) could be told to hold the ${COLUMN_CONTENT[kind]}`);
  return found;
}

const COLUMN_CONTENT = {
  event: "event names (none holds `Logged in`, none is named for events)",
  user: "users' emails (cells that are email addresses)",
  time: "timestamps (cells that are ISO 8601 dates)",
};

/** The value found in the fewest rows: the one a filter that is ignored or too loose shows up on best. */
export function rarest(values: (string | undefined)[], key = (v: string) => v): string | undefined {
  const counts = new Map<string, { value: string; n: number }>();
  for (const v of values) {
    if (!v) continue;
    const c = counts.get(key(v)) ?? { value: v, n: 0 };
    c.n++;
    counts.set(key(v), c);
  }
  return [...counts.values()].sort((a, b) => a.n - b.n)[0]?.value;
}

/** Plain words (letters only, four or more): what any full-text index keeps as they are, unlike emails, paths or numbers. */
export function wordsOf(row: string[]): string[] {
  const words = row.flatMap((cell) => cell.split(/\s+/)).map((t) => t.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, ""));
  return [...new Set(words.filter((w) => /^\p{L}{4,}$/u.test(w)))];
}

/**
 * A filter of E7, with a value chosen from the unfiltered export, which also holds a row the
 * filter must leave out (else the filter is not exercised): the filtered export is not empty
 * (rows with that value were just seen), each of its rows meets the filter, and each is a row of
 * the unfiltered export read after it (rows compared whole; new events only add rows). Where
 * the value's column was only guessed, an empty answer is `emptyUnjudged`, not a failure.
 */
export async function expectFilter(
  ctx: CheckContext,
  before: Export,
  query: Query,
  meets: (row: string[]) => boolean,
  emptyUnjudged?: string,
): Promise<Export> {
  const name = label(query);
  // A filter that keeps everything passes on an export it must not narrow: the scenario needs a row to leave out.
  if (!before.rows.some((r) => !meets(r)))
    throw new NotExercised(
      `none of the ${before.rows.length} row(s) of the unfiltered export is one ${name} must leave out: a filter that kept every row would pass unseen`,
    );
  const filtered = await readExport(await openExport(ctx, query), query);
  if (!filtered.rows.length && emptyUnjudged) throw new NotExercised(`the ${name} export is empty: ${emptyUnjudged}`);
  if (!filtered.rows.length)
    failOn(filtered.answer, `the ${name} export is empty, though the unfiltered export holds matching rows`, {
      reason: "filtered-empty",
      expected: "at least one row",
      got: "the header only",
    });
  const wrong = filtered.rows.filter((r) => !meets(r));
  if (wrong.length)
    failOn(filtered.answer, `${wrong.length} row(s) of the ${name} export do not meet the filter`, {
      expected: `only rows that meet ${name}`,
      got: wrong.slice(0, 3),
      reason: "row-outside-filter",
    });
  if (rowKey(filtered.header) !== rowKey(before.header))
    failOn(filtered.answer, `the ${name} export has other columns than the unfiltered one`, { expected: before.header, got: filtered.header });
  const missing = new Map(filtered.rows.map((r) => [rowKey(r), r]));
  const after = await openExport(ctx);
  const scan = await scanCsv(after, (record, i) => {
    if (i > 0) missing.delete(rowKey(record));
    return missing.size > 0 && i < SCAN;
  });
  // Past SCAN rows of a huge export the comparison is let go rather than guessed.
  if (missing.size && scan.complete)
    failOn(filtered.answer, `${missing.size} row(s) of the ${name} export are not rows of the unfiltered export`, {
      expected: "a subset of the unfiltered export's rows",
      got: [...missing.values()].slice(0, 3),
    });
  return filtered;
}

/** A proper part of an event name that is no event name itself: its first word, else its first half. */
export function partOf(name: string, known: Set<string>): string | undefined {
  return [name.split(/[\s._:/-]+/)[0], name.slice(0, Math.ceil(name.length / 2))].find((c) => c && c !== name && !known.has(c));
}

export const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The unfiltered export and its rarest event name, the one a filter on it narrows the most. */
export async function rarestEvent(ctx: CheckContext) {
  const before = await readExport(await openExport(ctx), {});
  const { index: col, by } = column(before, "event");
  const names = before.rows.map((r) => r[col]);
  const name = rarest(names);
  if (!name) throw new NotExercised("no row of the export names its event");
  // A column named for events but holding no event type the spec names may hold something else.
  const guessed = by === "header" ? `column ${before.header[col]} is named for events but may hold something else than event names` : undefined;
  return { before, col, names, name, guessed };
}

export const auditChecks = group(
  "audit",
  [
    {
      id: "audit.export.content-type-csv",
      spec: "E7",
      level: "MUST",
      title: "The audit log export answers 200 with a CSV content type",
      async run(ctx) {
        expectCsvLabel(ctx, await peek(await openExport(ctx)), "the export is labelled as CSV");
      },
    },
    {
      id: "audit.export.attachment",
      spec: "E7",
      level: "MUST",
      title: "The audit log export is streamed as an attachment (content-disposition: attachment)",
      async run(ctx) {
        const res = await peek(await openExport(ctx));
        const disposition = res.headers["content-disposition"];
        ctx.expect.that(/^\s*attachment\b/i.test(disposition ?? ""), "the export is sent as an attachment", {
          reason: "attachment",
          expected: "content-disposition: attachment; filename=…",
          got: disposition ?? "no content-disposition",
          res,
        });
      },
    },
    {
      id: "audit.export.csv-shape",
      spec: "E7",
      level: "MUST",
      title: "The export is CSV with a header row, and every row has as many cells as the header",
      async run(ctx) {
        const answer = await openExport(ctx);
        let header: string[] = [];
        let ragged: { row: number; cells: string[] } | undefined;
        await scanCsv(answer, (record, i) => {
          if (i === 0) header = record;
          else if (record.length !== header.length) ragged = { row: i, cells: record };
          return !ragged && i < SCAN;
        });
        if (!header.length) failOn(answer, "the export has no header row", { reason: "no-header", expected: "a header row", got: "an empty body" });
        if (header.some((h) => !h.trim()))
          failOn(answer, "every column of the header row has a name", { reason: "unnamed-column", expected: "named columns", got: header });
        // A first row holding an email or a timestamp is data: the header is missing.
        if (header.some((h) => EMAIL.test(h) || /^\d{4}-\d{2}-\d{2}/.test(h.trim())))
          failOn(answer, "the first row is a header, not an event", { reason: "header-row", expected: "column names", got: header });
        if (ragged)
          failOn(answer, `row ${ragged.row} has ${ragged.cells.length} cells, the header ${header.length}`, {
            reason: "ragged",
            expected: `${header.length} cells (${header.join(", ")})`,
            got: ragged.cells,
          });
      },
    },
    {
      id: "audit.filter.event-name",
      spec: "E7 (eventName)",
      level: "MUST",
      title: "eventName keeps exactly the events of that type, all of them rows of the unfiltered export",
      async run(ctx) {
        const { before, col, name, guessed } = await rarestEvent(ctx);
        await expectFilter(ctx, before, { eventName: name }, (r) => r[col] === name, guessed);
      },
    },
    {
      id: "audit.filter.event-name-exact",
      spec: "E7 (eventName)",
      // SHOULD: "event type filter" implies matching the type, not a part of its name; not stated.
      level: "SHOULD",
      title: "eventName matches the event type, not a part of its name",
      async run(ctx) {
        const { col, names, name } = await rarestEvent(ctx);
        const part = partOf(name, new Set(names));
        if (!part) throw new NotExercised(`no part of the event name "${name}" is free of other event names`);
        const query = { eventName: part };
        const answer = await ctx.api.stream(EXPORT, query);
        if (answer.status !== 200)
          return ctx.expect.clientError(await peek(answer), `${label(query)} (part of the event name "${name}") is answered 200 or rejected with a 4xx`);
        const other = (await readExport(answer, query)).rows.filter((r) => r[col] !== part);
        if (other.length)
          failOn(answer, `${label(query)}, a part of the event name "${name}", returns events of other types`, {
            reason: "other-events",
            expected: `no event other than "${part}"`,
            got: other.slice(0, 3),
          });
      },
    },
    {
      id: "audit.filter.user-email",
      spec: "E7 (userEmail)",
      level: "MUST",
      title: "userEmail keeps only that user's events, all of them rows of the unfiltered export; a prefix or a part of an email keeps no other user's",
      async run(ctx) {
        const before = await readExport(await openExport(ctx), {});
        const col = column(before, "user");
        const email = rarest(
          before.rows.map((r) => emailIn(r[col])),
          (e) => e.toLowerCase(),
        );
        if (!email) throw new NotExercised("no row of the export shows a user's email");
        await expectFilter(ctx, before, { userEmail: email }, (r) => emailIn(r[col])?.toLowerCase() === email.toLowerCase());
        // The filter's other classes (core/api/input-domain.ts): a prefix or part of a stored email names no user, and the
        // email in other case that user or none (case folding is not stated): none keeps another user's events.
        const known = new Set(before.rows.map((r) => emailIn(r[col])?.toLowerCase()));
        const parts = [email.slice(0, -1), email.slice(1)].filter((p) => !known.has(p.toLowerCase()));
        const variant = email.toUpperCase() === email ? email.toLowerCase() : email.toUpperCase();
        for (const value of variant === email ? parts : [...parts, variant]) {
          const what = value === variant ? `the email ${email} in other case` : `a part of the email ${email} and no user's email`;
          const query = { userEmail: value };
          const answer = await ctx.api.stream(EXPORT, query);
          if (answer.status !== 200) {
            ctx.expect.clientError(await peek(answer), `${label(query)} (${what}) is answered 200 or refused with a 4xx`);
            continue;
          }
          const others = (await readExport(answer, query)).rows.filter((r) => emailIn(r[col])?.toLowerCase() !== value.toLowerCase());
          if (others.length)
            failOn(answer, `${label(query)}, ${what}, returns the events of other users`, {
              reason: "partial-email-matched",
              expected: value === variant ? `no row of a user other than ${email}` : "no row: no user has that email",
              got: others.slice(0, 3),
            });
        }
      },
    },
    {
      id: "audit.filter.date-range",
      spec: "E7 (start, end)",
      level: "MUST",
      title: "start and end, together or each alone, keep only the events of that date range, all of them rows of the unfiltered export",
      async run(ctx) {
        const before = await readExport(await openExport(ctx), {});
        const col = column(before, "time");
        const times = before.rows
          .map((r) => instantOf(r[col]))
          .filter(Number.isFinite)
          .sort((a, b) => a - b);
        if (!times.length) throw new NotExercised(`no row's ${before.header[col]} reads as a date`);
        const day = Math.floor(times[Math.floor(times.length / 2)] / DAY) * DAY;
        // A day either side of a day with events: its rows are in range whether end is inclusive or
        // not and whatever time zone the server counts days in; a day more of slack checks the rows.
        const [from, to] = [day - 2 * DAY, day + 3 * DAY];
        // start and end each leave rows out: both must have rows to leave out, or one could be ignored unseen.
        const outside = { start: times.some((t) => t < from), end: times.some((t) => t >= to) };
        const unexercised = Object.entries(outside)
          .filter(([, some]) => !some)
          .map(([param]) => param);
        if (unexercised.length)
          throw new NotExercised(
            `no row of the unfiltered export lies ${unexercised.map((p) => (p === "start" ? `before start=${isoDay(day - DAY)}` : `after end=${isoDay(day + DAY)}`)).join(" or ")} (with a day of slack): ${unexercised.join(" and ")} would be ignored unseen`,
          );
        const inRange = (r: string[]) => {
          const t = instantOf(r[col]);
          return Number.isFinite(t) ? t >= from && t < to : undefined;
        };
        const filtered = await expectFilter(ctx, before, { start: isoDay(day - DAY), end: isoDay(day + DAY) }, (r) => inRange(r) ?? true);
        // Each bound alone (E7: all optional) bounds its side only, with the same day of slack: rows before
        // `from` are outside start alone, rows from `to` on outside end alone; each side has some (above).
        const fromStart = (r: string[]) => !(instantOf(r[col]) < from);
        const untilEnd = (r: string[]) => !(instantOf(r[col]) >= to);
        await expectFilter(ctx, before, { start: isoDay(day - DAY) }, fromStart);
        await expectFilter(ctx, before, { end: isoDay(day + DAY) }, untilEnd);
        const unreadable = filtered.rows.filter((r) => inRange(r) === undefined);
        // A row whose time does not read as a date was not judged: the range is not proven kept.
        if (unreadable.length)
          throw new NotExercised(
            `${unreadable.length} row(s) of the filtered export have a ${before.header[col]} that is no ISO 8601 date, e.g. ${JSON.stringify(unreadable[0][col])}: whether they are in range is not judged`,
          );
      },
    },
    {
      id: "audit.filter.search",
      spec: "E7 (search)",
      // SHOULD: full-text search may also cover event data the CSV does not show (its columns are
      // "not shown"), so a kept row without the term is not proof of a broken filter.
      level: "SHOULD",
      title: "search keeps only events whose row holds the text, all of them rows of the unfiltered export",
      async run(ctx) {
        const before = await readExport(await openExport(ctx), {});
        if (!before.rows.length) throw new NotExercised("the audit export has no rows to choose a search term from");
        const term = rarest(before.rows.flatMap(wordsOf), (w) => w.toLowerCase());
        if (!term) throw new NotExercised("no row of the export holds a plain word to search for");
        const needle = term.toLowerCase();
        await expectFilter(ctx, before, { search: term }, (r) => r.some((cell) => cell.toLowerCase().includes(needle)));
      },
    },
    {
      id: "audit.filter.invalid-date-rejected",
      spec: "E7 (start, end: ISO 8601 dates)",
      level: "SHOULD",
      title: "A start or end that is not an ISO 8601 date is rejected with a 4xx",
      async run(ctx) {
        await requireFeature(ctx);
        for (const param of ["start", "end"]) {
          const res = await peek(await ctx.api.stream(EXPORT, { [param]: "not-a-date" }));
          ctx.requireRoute(res, "E7", `${param}=not-a-date`);
          ctx.expect.clientError(res, `${param}=not-a-date is rejected as a client error`);
        }
      },
    },
  ],
  AUDIT_NEEDS,
);
