import type { CheckContext } from "../../core/check/context.js";
import { NotExercised } from "../../core/model/outcome.js";
import { field } from "../../core/served/served-operations.js";
import { pathTo } from "../../core/transport/client.js";
import type { OperationName } from "../../core/api/operations.js";
import { allRecords, documented, mentions, setup } from "./e14.js";

/**
 * A list filtered by `search` holds the record named by the term, and only records that mention it
 * (`termOf`: a part of a record every reasonable search finds it by, a name or an email's first
 * word). The spec says no more of search than that the list supports one, so the other classes of
 * the term are judged only as far as any reasonable search meets them:
 * - the whole stored value (`wholeOf`, where it is more than the term): the record is listed (a
 *   word index that cannot find a user by the email it holds fails); records that do not mention
 *   it may be listed too, since a full-text search may match any of its words;
 * - a part from inside a stored value, and the empty term: a list, or a refusal, never a 5xx (a
 *   prefix search finds nothing by a part, a full-text one may find more);
 * - on every page (rule 2): whatever a term finds, walked a record a page it finds no record that
 *   the same search in large pages does not (a filter applied to the first page only shows there).
 */
export async function searchHolds(
  ctx: CheckContext,
  list: OperationName,
  what: string,
  termOf: (rec: any) => string | undefined,
  wholeOf: (rec: any) => string | undefined = termOf,
): Promise<void> {
  const doc = await documented(ctx);
  doc.requireNamed(list, `is the ${what} list`);
  setup(ctx, await ctx.api.call(list), `listing ${what}`);
  const path = pathTo(list);
  const all = (await allRecords(ctx, path, {}, `the ${what} list`)).items;
  const target = all.find((r) => termOf(r));
  if (!target || all.length < 2) throw new NotExercised(`the ${what} list holds ${all.length} record(s): a search could not leave one out`);
  const term = termOf(target)!;
  const listed = (items: any[]) => items.some((r) => field(r, "id") === field(target, "id"));
  await expectSearchFinds(ctx, path, what, term, field(target, "id"), `the ${what} record holding "${term}"`);
  const whole = wholeOf(target);
  if (whole && whole !== term) {
    const exact = await allRecords(ctx, path, { search: whole }, `the ${what} list filtered by search=${whole}`);
    ctx.expect.that(listed(exact.items), `the ${what} record holding "${whole}" is listed when searched for whole`, {
      expected: `id ${field(target, "id")}`,
      got: exact.items.map((r) => field(r, "id")),
      res: exact.res,
      reason: "match-listed",
    });
  }
  await sameOnEveryPage(ctx, path, what, sharedTerms(all, termOf, wholeOf));
  const inside = whole && whole.length > 2 ? whole.slice(1, -1) : undefined;
  for (const probe of [...(inside ? [inside] : []), ""]) {
    const answer = await ctx.api.call(list, {}, { query: { search: probe } });
    ctx.expect.that(
      answer.status < 500,
      `GET ${path}?search=${probe} (${probe ? "a part from inside a stored value" : "the empty term"}) answers a list or a refusal`,
      {
        expected: "a status below 500",
        got: answer.status,
        res: answer,
        reason: "no-5xx",
      },
    );
  }
}

/**
 * Short terms (the first one or two letters of a record's term) that some records' searched value
 * holds and some do not, those found in the fewest first: a search for them finds two records or more (where it
 * matches inside values) and leaves others out, so that a later page of it shows what it kept.
 */
function sharedTerms(all: any[], termOf: (rec: any) => string | undefined, wholeOf: (rec: any) => string | undefined): string[] {
  const starts = all.flatMap((r) => {
    const t = termOf(r)?.toLowerCase();
    return t ? [t.slice(0, 2), t.slice(0, 1)] : [];
  });
  // Counted in the value the term is taken from: other fields (a role, a status) need not be searched.
  const found = (t: string) => all.filter((r) => wholeOf(r)?.toLowerCase().includes(t)).length;
  return [...new Set(starts)]
    .map((t) => ({ t, n: found(t) }))
    .filter(({ n }) => n >= 2 && n < all.length)
    .sort((a, b) => a.n - b.n)
    .slice(0, 4)
    .map(({ t }) => t);
}

/** Pages walked a record a page, at most: enough to pass the first page of any filter applied to it alone. */
const SMALL_PAGES = 12;

/**
 * For the first two terms whose search finds two records or more in one large page (else it has no
 * later page): walked one record a page, every record found is one the large pages found. Where no
 * term finds two, the list has no later page to judge: the rest of the check stands.
 */
async function sameOnEveryPage(ctx: CheckContext, path: string, what: string, terms: string[]): Promise<void> {
  let walked = 0;
  for (const term of [...new Set(terms.filter(Boolean))]) {
    if (walked >= 2) return;
    const whole = await allRecords(ctx, path, { search: term }, `the ${what} list filtered by search=${term}`);
    if (!whole.complete || whole.items.length < 2) continue;
    const paged = await allRecords(ctx, path, { search: term }, `the ${what} list filtered by search=${term}, a record a page`, {
      first: 1,
      maxPages: SMALL_PAGES,
    });
    walked++;
    const ids = new Set(whole.items.map((r) => field(r, "id")));
    ctx.expect.equal(
      paged.items.filter((r) => !ids.has(field(r, "id"))).map((r) => field(r, "id")),
      [],
      `walked a record a page, search=${term} finds no ${what} record that it does not find in one page of 50`,
      { res: paged.res, reason: "only-matches" },
    );
  }
}

/**
 * Terms outside ASCII (core/api/input-domain.ts's text classes): a record of the run's own named
 * `<run name> Équipe Ωμέγα` (made by `make`, where the server takes such a name) is listed by a term
 * that mixes its ASCII prefix with an accented word, and by its Greek word alone, and nothing that
 * does not mention that word is (a search that drops what it cannot read finds every record by it).
 */
export async function searchFindsNonAscii(
  ctx: CheckContext,
  list: OperationName,
  what: string,
  make: (name: string) => Promise<string | number | undefined>,
): Promise<void> {
  const base = ctx.scratch.name("search");
  const id = await make(`${base} Équipe Ωμέγα`);
  if (id === undefined) throw new NotExercised(`the server refused a ${what} record named with letters outside ASCII`);
  for (const term of [`${base} Équipe`, "Ωμέγα"])
    await expectSearchFinds(ctx, pathTo(list), what, term, id, `the run's ${what} record named "${base} Équipe Ωμέγα"`);
}

/** The list filtered by search=`term` holds the record of `id`, and no record that does not mention the term. */
async function expectSearchFinds(ctx: CheckContext, path: string, what: string, term: string, id: unknown, record: string): Promise<void> {
  const { res, items } = await allRecords(ctx, path, { search: term }, `the ${what} list filtered by search=${term}`);
  ctx.expect.that(
    items.some((r) => String(field(r, "id")) === String(id)),
    `${record} is listed by search=${term}`,
    {
      expected: `id ${id}`,
      got: items.map((r) => field(r, "id")),
      res,
      reason: "match-listed",
    },
  );
  ctx.expect.equal(
    items.filter((r) => !mentions(r, term)).map((r) => field(r, "id")),
    [],
    `no ${what} record without "${term}" is listed`,
    { res, reason: "only-matches" },
  );
}
