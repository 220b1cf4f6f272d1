import type { CheckContext } from "../../core/check/context.js";
import { canonicalJson } from "./values.js";
import { NotExercised } from "../../core/model/outcome.js";
import { walkCursor } from "../../core/transport/pagination.js";
import { type OperationParams, pathTo } from "../../core/transport/client.js";
import type { OperationName } from "../../core/api/operations.js";
import { documented, setup } from "./e14.js";

/**
 * A list 0.4.0 made cursor-paginated (E14 rule 11: branches, data-model files, regions, user
 * attributes): `first` bounds the page, `after` continues it, and the walk holds every record once.
 */
export async function cursorList(
  ctx: CheckContext,
  list: OperationName,
  params: OperationParams,
  what: string,
  query: Record<string, string> = {},
): Promise<void> {
  const { api, expect } = ctx;
  const doc = await documented(ctx);
  doc.requireNamed(list, `is the ${what} list`);
  const path = pathTo(list, params);
  const res = await api.get(path, { ...query, first: 1 });
  // The cursor style the assertions below hold it to (E14 shows no shape of its own).
  const body = setup<{ items: unknown[]; pageInfo?: { hasNextPage?: unknown } | null }>(ctx, res, `the first page of the ${what} list`);
  expect.that(Array.isArray(body.items), `the ${what} list answers items (cursor style)`, {
    expected: "an items array",
    got: Object.keys(body),
    res,
    reason: "items",
  });
  expect.that(
    !!body.pageInfo && typeof body.pageInfo === "object" && typeof body.pageInfo.hasNextPage === "boolean",
    `the ${what} list answers pageInfo with hasNextPage`,
    { expected: "pageInfo {hasNextPage, ...}", got: body.pageInfo, res, reason: "page-info" },
  );
  expect.that(body.items.length <= 1, `first=1 bounds the ${what} page to one record`, {
    expected: "at most 1 item",
    got: body.items.length,
    res,
    reason: "first-honoured",
  });
  const all = await walkCursor(api, path, { first: 100, query });
  if (all.items.length < 2) throw new NotExercised(`the ${what} list holds ${all.items.length} record(s): no second page to reach`);
  const walk = await walkCursor(api, path, { first: 1, stopAfter: 60, query });
  // Records compared whole, whatever order a server writes their keys in.
  const key = canonicalJson;
  const want = all.items.slice(0, walk.items.length).map(key).sort();
  expect.equal(
    walk.items.map(key).sort(),
    want,
    `walking the ${what} list one record a page (after = endCursor) gives the records of one large page, each once`,
    { res: walk.pages.at(-1)?.res, reason: "walk-complete" },
  );
}
