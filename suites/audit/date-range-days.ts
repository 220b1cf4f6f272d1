import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotExercised } from "../../core/model/outcome.js";
import type { ReasonKey } from "../../core/model/reasons.js";
import { AUDIT_NEEDS } from "./needs.js";
import { instantOf } from "./columns.js";
import { column, DAY, failOn, isoDay, label, openExport, readExport, rowKey } from "./examples.js";

type Export = Awaited<ReturnType<typeof readExport>>;

/** Each row's instant (NaN where its time does not read as a date), beside the row. */
function timed(before: Export): { row: string[]; t: number }[] {
  const col = column(before, "time");
  return before.rows.map((row) => ({ row, t: instantOf(row[col]) }));
}

/** The rows of `expected` that the export filtered by `query` does not hold: the filter dropped them. */
async function expectKept(ctx: CheckContext, query: Record<string, string>, expected: string[][], what: string, reason: ReasonKey): Promise<void> {
  const filtered = await readExport(await openExport(ctx, query), query);
  const kept = new Set(filtered.rows.map(rowKey));
  const dropped = expected.filter((r) => !kept.has(rowKey(r)));
  if (dropped.length)
    failOn(filtered.answer, `${dropped.length} of the ${expected.length} row(s) ${what} are missing from the ${label(query)} export`, {
      expected: `every row ${what}`,
      got: dropped.slice(0, 3),
      reason,
    });
}

/**
 * Completeness of E7's date range, beside its soundness (audit.filter.date-range): a range keeps
 * every event of the days it spans. Which day an event falls on, the server may count in its own
 * time zone, and whether `end` takes its own day in is not shown: the rows of a day two days inside
 * the range on either side are in it on any reading; a day alone (start = end) is the SHOULD.
 */
export const auditDateRangeDayChecks = group(
  "audit",
  [
    {
      id: "audit.filter.date-range-complete",
      spec: "E7 (start, end); Events (filtered by date range)",
      level: "MUST",
      title: "start and end keep every event of the days between them: the rows of a day two days inside the range are all kept",
      async run(ctx) {
        const before = await readExport(await openExport(ctx), {});
        const rows = timed(before).filter((r) => Number.isFinite(r.t));
        if (!rows.length) throw new NotExercised("no row's time of the unfiltered export reads as a date");
        const day = Math.floor(rows.map((r) => r.t).sort((a, b) => a - b)[Math.floor(rows.length / 2)] / DAY) * DAY;
        const ofDay = rows.filter((r) => r.t >= day && r.t < day + DAY).map((r) => r.row);
        await expectKept(
          ctx,
          { start: isoDay(day - 2 * DAY), end: isoDay(day + 2 * DAY) },
          ofDay,
          `of ${isoDay(day)}, two days inside the range`,
          "range-row-dropped",
        );
      },
    },
    {
      id: "audit.filter.end-day-included",
      spec: "E7 (start, end: ISO 8601 dates)",
      // SHOULD: that a date-only end takes its own day in is implied by a range of dates, not stated.
      level: "SHOULD",
      title: "A range of one day (start = end, a date) keeps that day's events: the end date is counted in",
      async run(ctx) {
        const before = await readExport(await openExport(ctx), {});
        // Events of 10:00 to 14:00 UTC fall on that day in any time zone within ten hours of UTC.
        const midday = timed(before).filter(({ t }) => Number.isFinite(t) && t % DAY >= 10 * 3_600_000 && t % DAY < 14 * 3_600_000);
        if (!midday.length) throw new NotExercised("no row of the unfiltered export falls between 10:00 and 14:00 UTC, on its day in any nearby time zone");
        const day = Math.floor(midday[Math.floor(midday.length / 2)].t / DAY) * DAY;
        const ofDay = midday.filter(({ t }) => t >= day && t < day + DAY).map((r) => r.row);
        await expectKept(ctx, { start: isoDay(day), end: isoDay(day) }, ofDay, `of ${isoDay(day)} between 10:00 and 14:00 UTC`, "end-day-dropped");
      },
    },
  ],
  AUDIT_NEEDS,
);
