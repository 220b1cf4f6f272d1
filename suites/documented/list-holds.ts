import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { recordOf } from "../../core/served/answers.js";
import type { Operation } from "../../core/served/served-document.js";
import { entriesOf } from "../../core/ledger/ownership.js";
import { listed } from "../../core/served/served-operations.js";
import { nextOffsetPage } from "../../core/transport/pagination.js";

/** Pages a list is walked to find what the run made (a longer list is not held against the server), unless it shows a total. */
const MAX_LIST_PAGES = 10;

/**
 * Whether the collection's list holds the id, walked page after page: by cursor where the list
 * takes `after`, by offset where it takes `offset` and shows its `pagination`; undefined where the
 * list does not answer or the walk ran out of pages.
 */
export async function listHolds(
  ctx: CheckContext,
  list: Operation,
  path: string,
  id: string,
  isIt: (record: any) => boolean = () => true,
): Promise<{ held: boolean | undefined; res?: Response }> {
  const takes = (name: string) => list.parameters.some((p) => p.in === "query" && p.name === name);
  let query: Record<string, string> = {};
  let res: Response | undefined;
  let seen = 0;
  let pages = MAX_LIST_PAGES;
  for (let page = 0; page < pages; page++) {
    res = await ctx.api.get(path, query);
    // A list that does not answer is documented.reads' verdict, not this chain's.
    if (res.status !== 200 || !res.isJson) return { held: undefined, res };
    const records = listed(recordOf(list, res)) ?? listed(res.body) ?? entriesOf(res.body);
    if (records.some((x: any) => x && String(x.id) === id && isIt(x))) return { held: true, res };
    seen += records.length;
    const info = res.body?.pageInfo ?? recordOf(list, res)?.pageInfo;
    if (takes("after") && info?.hasNextPage === true && typeof info.endCursor === "string") {
      query = { after: info.endCursor };
      continue;
    }
    // A list paged by offset (E1's deployments) goes on: its first page of 20 held the newest of a thousand nowhere.
    const nextPage = takes("offset") ? nextOffsetPage(res.body?.pagination ?? recordOf(list, res)?.pagination, records.length, seen) : undefined;
    if (!nextPage) return { held: false, res };
    query = { offset: String(nextPage.offset), limit: String(nextPage.limit) };
    // A total shown is read to its end (within a hundred pages): a walk cut short judges nothing.
    if (nextPage.total !== undefined) pages = Math.min(100, Math.max(pages, page + 1 + Math.ceil((nextPage.total - seen) / nextPage.limit)));
  }
  return { held: undefined, res };
}
