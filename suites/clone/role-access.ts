import { groupedById } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotExercised } from "../../core/model/outcome.js";
import { walkCursor } from "../../core/transport/pagination.js";
import { workbooksPath } from "../lib/workbook-calls.js";
import { duplicate, workbookPath } from "../lib/workbook-writes.js";
import { VIEWER } from "../lib/viewer.js";
import { copiesBefore, expectNoCopyMade } from "./refused-clone.js";

/** A workbook the viewer reads (its own E8 page, then E9): a refusal of its clone is the role's, not read access's. */
async function readableByViewer(ctx: CheckContext, dep: string): Promise<{ id: number; name: string }> {
  const viewer = ctx.as("viewer");
  const isWorkbook = (x: any) => Number.isSafeInteger(x?.id) && typeof x?.name === "string" && (x.type === undefined || x.type === "WORKBOOK");
  // Pages at a size the server takes (no maximum is shown: a refused size is halved), until one
  // lists a workbook: no order of E8 is a rule, and a first page may hold reports only.
  const page = await walkCursor(viewer, workbooksPath(dep), { first: 50, stopAfter: 10, until: (items) => items.some(isWorkbook) }).catch((e: Error) => e);
  const listed: any[] = page instanceof Error ? [] : page.items;
  for (const w of listed.filter(isWorkbook).slice(0, 5)) {
    if ((await viewer.get(workbookPath(dep, w.id))).status === 200) return w;
  }
  throw new NotExercised(
    `the viewer token reads no workbook of deployment ${dep} (E8 answered ${page instanceof Error ? page.message : `${page.items.length} workbooks`}, then E9): a refusal could be for want of read access`,
  );
}

export const cloneRoleAccessChecks = groupedById([
  {
    id: "clone.access.viewer-refused",
    spec: "E10 rule 5; Authentication 4",
    level: "MUST",
    title: "A caller below the AI BI User role cannot clone a workbook it can read, and no clone is made",
    needs: [...VIEWER],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const source = await readableByViewer(ctx, dep);
      const before = await copiesBefore(ctx, dep, source.id);
      const res = await duplicate(ctx.scratch, ctx.as("viewer"), dep, source.id);
      ctx.expect.clientError(res, `cloning workbook ${source.id} as a caller below AI BI User is refused`, "role-refused");
      await expectNoCopyMade(ctx, dep, before, res, "after the refused clone");
    },
  },
]);
