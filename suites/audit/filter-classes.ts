import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotExercised } from "../../core/model/outcome.js";
import { peek } from "../lib/streamed.js";
import { AUDIT_NEEDS } from "./needs.js";
import { EXPORT, column, expectFilter, failOn, label, openExport, rarest, rarestEvent, readExport, wordsOf } from "./examples.js";
import { emailIn } from "./columns.js";

/**
 * The classes of E7's eventName and search (core/api/input-domain.ts) the filter checks of
 * examples.ts do not send: a part further inside a stored value, the value in other case, and for
 * search a whole cell. Case folding and matching inside a word are not stated: a filter may keep
 * the rows that hold the value, or none, or refuse it with a 4xx; it keeps no row that lacks it. Which
 * columns are "event data" that search covers is not shown either: a whole cell may find none.
 */

/** The other case of a value: upper, or lower where it is all upper already. */
const otherCase = (v: string) => (v.toUpperCase() === v ? v.toLowerCase() : v.toUpperCase());

/** A filtered export that may be empty or refused (4xx): each row it keeps meets `meets`. */
async function keepsOnly(
  ctx: CheckContext,
  query: Record<string, string>,
  what: string,
  meets: (row: string[]) => boolean,
  reason: "other-events" | "row-outside-filter",
) {
  const answer = await ctx.api.stream(EXPORT, query);
  if (answer.status !== 200) return ctx.expect.clientError(await peek(answer), `${label(query)} (${what}) is answered 200 or refused with a 4xx`);
  const wrong = (await readExport(answer, query)).rows.filter((r) => !meets(r));
  if (wrong.length)
    failOn(answer, `${label(query)}, ${what}, keeps ${wrong.length} row(s) that do not hold it`, {
      reason,
      expected: `only rows that hold ${what}`,
      got: wrong.slice(0, 3),
    });
}

export const auditFilterClassChecks = group(
  "audit",
  [
    {
      id: "audit.filter.event-name-classes",
      spec: "E7 (eventName)",
      // SHOULD: "event type filter" implies matching the type; case folding is not stated.
      level: "SHOULD",
      title: "eventName given a part from inside an event type's name keeps no event, and given the name in other case keeps that type's events or none",
      async run(ctx) {
        const { col, names, name } = await rarestEvent(ctx);
        const known = new Set(names);
        // A part that starts after the name's first character (its last word, else its second half) and names no type itself.
        const inside = [name.split(/[\s._:/-]+/).at(-1), name.slice(Math.floor(name.length / 2))].find((p) => p && name.indexOf(p) > 0 && !known.has(p));
        const variant = otherCase(name);
        if (!inside && known.has(variant)) throw new NotExercised(`no part inside the event name "${name}", nor its other case, is free of other event names`);
        if (inside) await keepsOnly(ctx, { eventName: inside }, `a part inside the event name "${name}"`, (r) => r[col] === inside, "other-events");
        if (!known.has(variant))
          await keepsOnly(
            ctx,
            { eventName: variant },
            `the event name "${name}" in other case`,
            (r) => r[col].toLowerCase() === name.toLowerCase(),
            "other-events",
          );
      },
    },
    {
      id: "audit.filter.search-classes",
      spec: "E7 (search)",
      // SHOULD: full-text search may match event data the CSV does not show (its columns are "not shown").
      level: "SHOULD",
      title: "search given a whole cell, a part from inside a word, or a cell in other case keeps only rows that hold it (case folded), or none",
      async run(ctx) {
        const before = await readExport(await openExport(ctx), {});
        if (!before.rows.length) throw new NotExercised("the audit export has no rows to choose a search term from");
        const holds = (v: string) => (r: string[]) => r.some((cell) => cell.toLowerCase().includes(v.toLowerCase()));
        // A whole cell that is one plain word; the columns that are "event data" are not shown, so it may find none.
        const cell = rarest(before.rows.flat().filter((c) => /^\p{L}{4,}$/u.test(c)));
        if (cell) await keepsOnly(ctx, { search: cell }, `"${cell}", a whole cell`, holds(cell), "row-outside-filter");
        const word = rarest(before.rows.flatMap(wordsOf), (w) => w.toLowerCase());
        if (!word) throw new NotExercised("no row of the export holds a plain word to search for");
        await keepsOnly(ctx, { search: word.slice(1) }, `"${word.slice(1)}", a part inside the word "${word}"`, holds(word.slice(1)), "row-outside-filter");
        // The other case of a whole cell where one is a plain word (the class case-variant), else of the word.
        const cased = cell ?? word;
        await keepsOnly(ctx, { search: otherCase(cased) }, `"${cased}" in other case`, holds(cased), "row-outside-filter");
      },
    },
    {
      id: "audit.filter.combined",
      spec: "E7 (eventName: event type filter, userEmail: user filter, given together)",
      level: "MUST",
      title:
        "eventName and userEmail given together each still filter: every row kept is of that type and that user, though the unfiltered export holds rows of the type by other users and of the user with other types",
      async run(ctx) {
        const { before, col, guessed } = await rarestEvent(ctx);
        const user = column(before, "user");
        const emailOf = (r: string[]) => emailIn(r[user])?.toLowerCase();
        // A type and a user seen together, where each filter alone would keep a row the other leaves out: ignoring either shows.
        const pairs = before.rows.filter((r) => {
          const [name, email] = [r[col], emailOf(r)];
          return email && before.rows.some((o) => o[col] === name && emailOf(o) !== email) && before.rows.some((o) => o[col] !== name && emailOf(o) === email);
        });
        const pair = rarest(pairs.map((r) => JSON.stringify([r[col], emailIn(r[user])])));
        if (!pair) throw new NotExercised("no event type and user of the export have rows apart as well as together: either filter would be ignored unseen");
        const [eventName, userEmail] = JSON.parse(pair) as [string, string];
        await expectFilter(ctx, before, { eventName, userEmail }, (r) => r[col] === eventName && emailOf(r) === userEmail.toLowerCase(), guessed);
      },
    },
    {
      id: "audit.filter.search-with-event-name",
      spec: "E7 (search: full text; eventName: event type filter; given together)",
      // SHOULD, as audit.filter.search: full-text search may cover event data the CSV does not show.
      level: "SHOULD",
      title:
        "search and eventName given together each still filter: every row kept (if any) is of that type and holds the text, though rows of that type without it exist",
      async run(ctx) {
        const { before, col } = await rarestEvent(ctx);
        // Per type, the rows that hold each word: a word some rows of the type hold and some do not, so that ignoring search shows.
        const typeRows = new Map<string, number>();
        const holding = new Map<string, Set<string[]>>();
        for (const r of before.rows) {
          typeRows.set(r[col], (typeRows.get(r[col]) ?? 0) + 1);
          for (const w of new Set(wordsOf(r).map((x) => x.toLowerCase()))) {
            const key = JSON.stringify([r[col], w]);
            holding.set(key, (holding.get(key) ?? new Set()).add(r));
          }
        }
        const pair = rarest([...holding].filter(([key, rows]) => rows.size < (typeRows.get(JSON.parse(key)[0]) ?? 0)).map(([key]) => key));
        if (!pair) throw new NotExercised("no event type has rows with a plain word and rows without it: search ignored beside eventName would go unseen");
        const [eventName, word] = JSON.parse(pair) as [string, string];
        // Which columns search covers is not shown (a word of the user column may find none): an empty export is no failure, a row without the word is.
        await keepsOnly(
          ctx,
          { eventName, search: word },
          `events of type "${eventName}" holding "${word}"`,
          (r) => r[col] === eventName && r.some((cell) => cell.toLowerCase().includes(word)),
          "row-outside-filter",
        );
      },
    },
  ],
  AUDIT_NEEDS,
);
