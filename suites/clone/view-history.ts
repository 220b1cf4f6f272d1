import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { field } from "../../core/served/served-operations.js";
import { listReports } from "../lib/reports.js";
import { cloneAndRead } from "./clone-and-read.js";

/** The workbook a report belongs to, as the reports list names it (E14: shape not shown). */
const workbookOf = (report: any): unknown => field(report, "workbookId|workbook");
const viewed = (report: any) => report?.lastViewedAt != null;

/**
 * The reports list (E14), whole. A server that does not serve it shows no view history: the check
 * cannot be judged there (the reports group judges the list itself).
 */
async function reportsListed(ctx: CheckContext, dep: string): Promise<any[]> {
  const probe = await ctx.api.call("listReports", { deploymentId: dep }, { query: { first: 1 } });
  if (probe.status !== 200) throw new NotVerifiable(`the reports list answered ${probe.status}: no view history (lastViewedAt) can be read`);
  return (await listReports(ctx, dep, {})).items;
}

/** E10 rule 3 (view history): what a clone starts without. */
export const cloneHistoryChecks = group("clone", [
  {
    id: "clone.history.view-history-not-copied",
    spec: "E10 rule 3; E14 (reports list, sortBy lastViewedAt)",
    level: "MUST",
    title:
      "Per-user view history is not copied: a clone of a workbook whose reports have been viewed lists its copied reports without the source's lastViewedAt",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const before = await reportsListed(ctx, dep);
      // The workbook with the most viewed reports: only a viewed source has a history a clone could copy.
      const viewedOf = new Map<number, any[]>();
      for (const r of before.filter(viewed)) {
        const wb = workbookOf(r);
        if (Number.isSafeInteger(wb)) viewedOf.set(wb as number, [...(viewedOf.get(wb as number) ?? []), r]);
      }
      const [source, views] = [...viewedOf].sort((a, b) => b[1].length - a[1].length)[0] ?? [];
      if (source === undefined || !views)
        throw new NotExercised(
          "no report the reports list shows has been viewed (every lastViewedAt is null) under a workbook: there is no view history to copy",
        );
      const history = new Set(views.map((r) => String(r.lastViewedAt)));
      const { answer } = await cloneAndRead(ctx, dep, source);
      const copies = (await reportsListed(ctx, dep)).filter((r) => workbookOf(r) === answer.id);
      // E10 rule 1: the clone copies its reports; a clone with none listed is clone.copy.full-copy's to judge.
      if (!copies.length) throw new NotExercised(`the reports list shows no report of the clone ${answer.id} of workbook ${source}`);
      const copied = copies.filter((r) => viewed(r) && history.has(String(r.lastViewedAt)));
      ctx.expect.that(
        copied.length === 0,
        `the reports of the clone ${answer.id} carry none of the view history of workbook ${source}'s reports (lastViewedAt ${[...history].join(", ")})`,
        {
          expected: "lastViewedAt null on every copied report (never viewed)",
          got: copied.map((r) => `report ${r.id} lastViewedAt ${r.lastViewedAt}`).join("; "),
          reason: "view-history",
        },
      );
    },
  },
]);
