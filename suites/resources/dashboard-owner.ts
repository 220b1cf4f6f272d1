import { invariant } from "../../core/run/invariants.js";
import { typedAnswer } from "../../core/api/typed-answers.js";
import { recordsOf } from "../lib/records.js";

/**
 * Resources / Dashboard is "the published dashboard of a workbook", with a required workbookId: on
 * every answer that shows a workbook with its published dashboard (E8, E9, E10, E11, E12's moved
 * records), the dashboard names that workbook. A SHOULD: the spec implies whose id it is, and does
 * not state it. A clone that copies its source's dashboard whole names the source.
 */
export const dashboardOwner = invariant({
  id: "resources.dashboard.names-its-workbook",
  spec: "Resources / Dashboard (the published dashboard of a workbook; workbookId); E8; E9; E10; E11",
  level: "SHOULD",
  title: "Every workbook's published dashboard, on every answer that shows one, names that workbook in its workbookId",
  applicable: "a workbook with a published dashboard that carries a workbookId, in a typed answer",
  reasons: {
    "dashboard-workbook": { title: "A workbook's published dashboard names that workbook", expected: "publishedDashboard.workbookId = the workbook's id" },
  },
  watch: () => (x) => {
    const typed = x.isJson ? typedAnswer(x.method, x.url.pathname, x.status) : undefined;
    if (!typed) return undefined;
    const shown = recordsOf(typed.schema, x.body).filter((w) => Number.isSafeInteger(w?.id) && Number.isSafeInteger(w?.publishedDashboard?.workbookId));
    if (!shown.length) return undefined;
    const other = shown.filter((w) => w.publishedDashboard.workbookId !== w.id);
    if (!other.length) return "held";
    return {
      reason: "dashboard-workbook",
      defect: `${typed.endpoint} dashboard-workbook`,
      message: `${typed.endpoint} answered a workbook whose published dashboard names another workbook`,
      expected: "publishedDashboard.workbookId = the workbook's id",
      got: other
        .slice(0, 3)
        .map((w) => `workbook ${w.id}: publishedDashboard.workbookId ${w.publishedDashboard.workbookId}`)
        .join("; "),
    };
  },
});
