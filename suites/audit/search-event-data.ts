import { group } from "../../core/check/check.js";
import { NotExercised } from "../../core/model/outcome.js";
import { AUDIT_NEEDS } from "./needs.js";
import { findColumns } from "./columns.js";
import { expectFilter, openExport, rarest, readExport } from "./examples.js";

/** A header that names the event's data (Go's event_data, the reference's details, Rust's attributes). */
const DATA_HEADER = /data|detail|attribute|payload|context|metadata/i;

/** The string values of a JSON cell (its keys are the server's field names, not what happened), else the cell itself. */
function textOf(cell: string): string[] {
  try {
    const strings: string[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === "string") strings.push(v);
      else if (v && typeof v === "object") for (const x of Object.values(v)) walk(x);
    };
    const parsed: unknown = JSON.parse(cell);
    if (parsed && typeof parsed === "object") {
      walk(parsed);
      return strings;
    }
  } catch {
    /* not JSON: plain text */
  }
  return [cell];
}

/** Words of letters only, four or more, split at anything else (compact JSON has no spaces). */
const wordsIn = (texts: string[]) => texts.flatMap((t) => t.split(/[^\p{L}]+/u)).filter((w) => w.length >= 4);

/**
 * E7's search is "full-text over event data". Which column holds the event's data is not shown: the
 * one (not the user's, the time's or the event type's) named for data or details, or whose cells
 * are JSON objects. A word of that column that no other column of any row holds can be found by a
 * search over event data only, and must be.
 */
export const auditSearchEventDataChecks = group(
  "audit",
  [
    {
      id: "audit.filter.search-event-data",
      spec: "E7 (search: full-text over event data)",
      // SHOULD: which column is the event data is read off its name or its JSON cells, not shown.
      level: "SHOULD",
      title: "search for a word that only the event data of some rows holds finds those rows",
      async run(ctx) {
        const before = await readExport(await openExport(ctx), {});
        if (!before.rows.length) throw new NotExercised("the audit export has no rows to choose a search term from");
        const known = findColumns(before.header, before.rows);
        const others = new Set([known.user, known.time, known.event?.index]);
        const json = (i: number) => before.rows.filter((r) => /^\s*\{/.test(r[i] ?? "")).length >= 0.9 * before.rows.length;
        const candidates = before.header.map((_, i) => i).filter((i) => !others.has(i) && (DATA_HEADER.test(before.header[i]) || json(i)));
        if (candidates.length !== 1)
          throw new NotExercised(
            `no one column of the export (${before.header.join(", ")}) could be told to hold the event data (named for data or details, or JSON objects)`,
          );
        const data = candidates[0];
        const elsewhere = new Set(before.rows.flatMap((r) => wordsIn(r.filter((_, i) => i !== data))).map((w) => w.toLowerCase()));
        const word = rarest(
          before.rows.flatMap((r) => wordsIn(textOf(r[data] ?? ""))).filter((w) => !elsewhere.has(w.toLowerCase())),
          (w) => w.toLowerCase(),
        );
        if (!word) throw new NotExercised(`no word of the event data (column ${before.header[data]}) is one that no other column holds`);
        await expectFilter(ctx, before, { search: word }, (r) => r.some((cell) => cell.toLowerCase().includes(word.toLowerCase())));
      },
    },
  ],
  AUDIT_NEEDS,
);
