import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { records } from "../lib/e14.js";
import { listReports } from "../lib/reports.js";

/** E14 rule 5: the sortBy values the reports list takes (no cursor when sorting by lastViewedAt). */
export const SORT_BY = ["createdAt", "updatedAt", "lastViewedAt", "name"];

/** What a filtered query lists on one read path of the reports list. */
export interface ReadPath {
  label: string;
  res: Response;
  items: any[];
}

/**
 * The reports a filtered query lists on each read path of the list: its own order, walked by
 * cursor, and each sortBy E14 rule 5 names, lastViewedAt's being the one page the server gives (no
 * cursor is available with it). A filter holds on every one of them: a server once filtered the
 * cursor walk and returned every report sorted by lastViewedAt. A sort the server refuses is
 * reports.list.sort-by-values's failure, not the filter's: that path is left out.
 */
export async function onEveryReadPath(ctx: CheckContext, dep: string, query: Record<string, string | number>): Promise<ReadPath[]> {
  const paths: ReadPath[] = [{ label: "in the list's own order", ...(await listReports(ctx, dep, query)) }];
  for (const sortBy of SORT_BY) {
    const label = `sorted by ${sortBy}`;
    const sorted = { ...query, sortBy };
    const page = await ctx.api.call(
      "listReports",
      { deploymentId: dep },
      { query: Object.fromEntries(Object.entries(sorted).map(([k, v]) => [k, String(v)])) },
    );
    if (page.status !== 200) continue;
    paths.push({
      label,
      ...(sortBy === "lastViewedAt" ? { res: page, items: records(ctx, page, `the reports list ${label}`) } : await listReports(ctx, dep, sorted)),
    });
  }
  return paths;
}
