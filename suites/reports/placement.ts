import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { field, type ServedOperation } from "../../core/served/served-operations.js";
import { accepted, documented, ok2xx, setupRecord, shownStatus } from "../lib/e14.js";
import { WRITES } from "../lib/needs.js";
import { ownReport } from "../lib/reports.js";

/**
 * A removal of a placement addressed as the document takes it: in the query where it names each
 * address parameter, else in a JSON body (a DELETE with a body: the spec says what addresses a
 * placement, not where it goes).
 */
function removal(remove: ServedOperation, address: Record<string, string>): { query: Record<string, string> } | { body: Record<string, unknown> } {
  const names = Object.keys(address).map((k) => remove.queryParam(k)?.name);
  if (names.every((n) => n !== undefined)) return { query: Object.fromEntries(Object.values(address).map((v, i) => [names[i]!, v])) };
  if (remove.bodySchema()) return { body: remove.body(address) };
  throw new NotVerifiable(`${remove.label} documents ${Object.keys(address).join(", ")} neither as query parameters nor in a body`);
}

/** A report of the run's own, the three placement operations of the server's document, and a placing of it that is removed (by its address) at cleanup. */
async function placementStage(ctx: CheckContext, name: string) {
  const dep = ctx.fixture("deployment").id;
  const doc = await documented(ctx);
  const connect = doc.requireNamed("connectReportWorkbook", "places a report in a spreadsheet");
  const refresh = doc.requireNamed("refreshReport", "refreshes a placement");
  const remove = doc.requireNamed("disconnectReportWorkbook", "removes a placement");
  const own = await ownReport(ctx, doc, dep, ctx.scratch.name(name));
  const report = { deploymentId: dep, reportId: own.id };
  const place = async (address: { externalWorkbookId: string; sheetName: string; anchorCell: string }) => {
    const placed = await ctx.api.call("connectReportWorkbook", report, { body: connect.body(address) });
    const body = setupRecord(ctx, connect, placed, `placing report ${own.id} at ${address.sheetName}!${address.anchorCell}`);
    ctx.scratch.onCleanup(
      `remove the placement of report ${own.id} at ${address.anchorCell}`,
      async () => void (await ctx.api.call("disconnectReportWorkbook", report, removal(remove, address))),
    );
    return body;
  };
  return { own, report, refresh, remove, place };
}

/** E14 rule 13: a report placement is addressed two ways (its cell, its placementId), to refresh and to remove it; shapes from the server's own document. */
export const reportPlacementChecks = [
  ...group("reports", [
    {
      id: "reports.placement.addressing",
      spec: "E14 rule 13",
      level: "MUST",
      title: "A placement is refreshed by its address and by its placementId, and once removed by placementId it is gone",
      needs: [...WRITES],
      async run(ctx) {
        const { report, refresh, remove, place } = await placementStage(ctx, "placed");
        const address = { externalWorkbookId: ctx.scratch.slug("sheet"), sheetName: "Sheet1", anchorCell: "C3" };
        const placementId = field(await place(address), "placementId|id");
        const byAddressBody = refresh.body(address);
        const byAddress = await ctx.api.call("refreshReport", report, { body: byAddressBody });
        const addressed = { body: byAddressBody, op: refresh, underTest: [...Object.keys(address), ...Object.values(address)] };
        accepted(ctx, byAddress, addressed, "a refresh addressed by externalWorkbookId, sheetName and anchorCell is accepted", "refresh-by-address");
        if (placementId === undefined) throw new NotExercised("placing the report answered no placementId: the second way to address it could not be tried");
        const byIdBody = refresh.body({ placementId });
        const byId = await ctx.api.call("refreshReport", report, { body: byIdBody });
        const underTest = ["placementId", String(placementId)];
        accepted(ctx, byId, { body: byIdBody, op: refresh, underTest }, `a refresh addressed by placementId ${placementId} is accepted`, "refresh-by-id");
        const removed = await ctx.api.call("disconnectReportWorkbook", report, removal(remove, { placementId: String(placementId) }));
        ctx.expect.that(ok2xx(removed), `removing placement ${placementId} by its id is accepted`, {
          expected: "2xx",
          got: shownStatus(removed),
          res: removed,
          reason: "remove-by-id",
        });
        const gone = await ctx.api.call("refreshReport", report, { body: refresh.body(address) });
        ctx.expect.that(gone.status >= 400 && gone.status < 500, "the removed placement can no longer be refreshed by its address", {
          expected: "a 4xx (the placement is gone)",
          got: shownStatus(gone),
          res: gone,
          reason: "placement-removed",
        });
      },
    },
    {
      id: "reports.placement.remove-by-address",
      spec: "E14 rule 13",
      level: "MUST",
      title:
        "A report placed at two anchors of one sheet: the placement removed by its address (externalWorkbookId, sheetName, anchorCell) is gone, and the one at the other anchor stays",
      needs: [...WRITES],
      reasons: {
        "remove-by-address": { title: "A placement is removed by externalWorkbookId, sheetName and anchorCell", expected: "a 2xx" },
        "other-placement-kept": { title: "The report's placement at another anchor of the sheet stays after the removal", expected: "a 2xx refresh" },
      },
      async run(ctx) {
        const { own, report, refresh, remove, place } = await placementStage(ctx, "placed-twice");
        // One sheet, two anchors: the address differs in anchorCell alone, so a removal that reads less of it takes both.
        const sheet = { externalWorkbookId: ctx.scratch.slug("sheet"), sheetName: "Sheet1" };
        const [dropped, kept] = [
          { ...sheet, anchorCell: "C3" },
          { ...sheet, anchorCell: "F9" },
        ];
        for (const address of [dropped, kept]) await place(address);
        const refreshAt = (address: typeof kept) => ctx.api.call("refreshReport", report, { body: refresh.body(address) });
        ctx.require(await refreshAt(kept), "E14", `refreshing the placement at ${kept.anchorCell} by its address (reports.placement.addressing judges that)`);
        const first = await refreshAt(dropped);
        if (!ok2xx(first))
          throw new NotExercised(
            `once report ${own.id} is placed at ${kept.anchorCell} too, its placement at ${dropped.anchorCell} no longer refreshes (${shownStatus(first)}): the server keeps one placement a report and sheet, so none is left to stay`,
          );
        const removed = await ctx.api.call("disconnectReportWorkbook", report, removal(remove, dropped));
        ctx.expect.that(ok2xx(removed), `removing the placement at ${dropped.anchorCell} by its address is accepted`, {
          expected: "2xx",
          got: shownStatus(removed),
          res: removed,
          reason: "remove-by-address",
        });
        const other = await refreshAt(kept);
        ctx.expect.that(
          ok2xx(other),
          `the placement at ${kept.anchorCell} of the same sheet still refreshes after the one at ${dropped.anchorCell} was removed`,
          {
            expected: "a 2xx (the placement is still there)",
            got: shownStatus(other),
            res: other,
            reason: "other-placement-kept",
          },
        );
        const gone = await refreshAt(dropped);
        ctx.expect.that(gone.status >= 400 && gone.status < 500, `the placement removed at ${dropped.anchorCell} can no longer be refreshed by its address`, {
          expected: "a 4xx (the placement is gone)",
          got: shownStatus(gone),
          res: gone,
          reason: "placement-removed",
        });
      },
    },
  ]),
];
