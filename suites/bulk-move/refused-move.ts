import type { CheckContext } from "../../core/check/context.js";
import type { Response } from "../../core/transport/http.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import { walkAgainUntil, walkCursor } from "../../core/transport/pagination.js";
import type { ItemRef } from "../../core/ledger/scratch.js";
import { createWorkbook } from "../lib/scratch-items.js";
import { workbooksPath } from "../lib/workbook-calls.js";

/**
 * After a refused bulk move (E12) of the run's own workbooks into `dest`, a folder of its own that
 * held none of them: E8 filtered by that folder lists none. One listing, not a read per item. The
 * filter is believed where it leaves out `outsider`, a workbook of the check's own at the root that
 * was never sent; one walk shows a moved item, its absence only when every walk agrees.
 */
export async function expectNoneMoved(ctx: CheckContext, dep: string, items: ItemRef[], dest: number, res: Response): Promise<void> {
  const outsider = await createWorkbook(ctx, dep);
  const sent = new Set(items.map((i) => i.id));
  const read = () => walkCursor(ctx.api, workbooksPath(dep), { first: 100, query: { folderId: dest }, endpoint: "E8" });
  const walk = await walkAgainUntil(read, (w) => w.partial || w.items.some((x: any) => sent.has(x?.id)));
  const listed = new Set(walk.items.map((x: any) => x?.id));
  if (listed.has(outsider.id) || (walk.partial && ![...listed].some((id) => sent.has(id))))
    throw new NotVerifiable(
      `E8 filtered by folderId=${dest} ${walk.partial ? "runs past the page budget" : `lists workbook ${outsider.id}, which sits at the root`}: it does not show what folder ${dest} holds`,
    );
  const moved = items.filter((i) => listed.has(i.id)).map((i) => i.id);
  ctx.expect.equal(moved, [], `after the refused bulk move, none of the ${items.length} workbooks reads back in folder ${dest} (E8 folderId)`, {
    res,
    reason: "nothing-moved",
  });
}
