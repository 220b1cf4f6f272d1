import type { CheckContext } from "../../core/model/context.js";
import { NotExercised } from "../../core/model/outcome.js";
import { field } from "../../core/served/served-operations.js";
import { pathTo } from "../../core/api/client.js";
import type { OperationName } from "../../core/api/operations.js";
import { allRecords, documented, mentions, setup } from "./e14.js";

/** A list filtered by `search` holds the record named by the term, and only records that mention it. */
export async function searchHolds(ctx: CheckContext, list: OperationName, what: string, termOf: (rec: any) => string | undefined): Promise<void> {
  const doc = await documented(ctx);
  doc.requireNamed(list, `is the ${what} list`);
  setup(ctx, await ctx.api.call(list), `listing ${what}`);
  const path = pathTo(list);
  const all = (await allRecords(ctx, path, {}, `the ${what} list`)).items;
  const target = all.find((r) => termOf(r));
  if (!target || all.length < 2) throw new NotExercised(`the ${what} list holds ${all.length} record(s): a search could not leave one out`);
  const term = termOf(target)!;
  const { res, items: found } = await allRecords(ctx, path, { search: term }, `the ${what} list filtered by search=${term}`);
  ctx.expect.that(
    found.some((r) => field(r, "id") === field(target, "id")),
    `the ${what} record holding "${term}" is listed`,
    { expected: `id ${field(target, "id")}`, got: found.map((r) => field(r, "id")), res, reason: "match-listed" },
  );
  ctx.expect.equal(
    found.filter((r) => !mentions(r, term)).map((r) => field(r, "id")),
    [],
    `no ${what} record without "${term}" is listed`,
    { res, reason: "only-matches" },
  );
}
