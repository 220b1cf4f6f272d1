import fc from "fast-check";
import type { Api } from "../../core/transport/api.js";
import type { CheckContext } from "../../core/check/context.js";
import { walkCursor } from "../../core/transport/pagination.js";
import { readableWithout } from "./lenient-reading.js";
import { createFolder, createWorkbook } from "./scratch-items.js";
import { trackAnswered } from "./workbook-writes.js";
import { pathTo } from "../../core/transport/client.js";
import { type Stage, badBodies, notJsonBodies, sender, spelledAsValid } from "./negative-bodies.js";
import { isObject } from "./values.js";

/** The source sits in a folder of the run's own, where a clone would land (E10 rule 4): the folder must keep holding it alone. */
export async function cloneStage(ctx: CheckContext): Promise<Stage> {
  const dep = ctx.fixture("deployment").id;
  const folder = await createFolder(ctx, dep);
  const source = await createWorkbook(ctx, dep, folder.id);
  const inFolder = async (api: Api) => {
    const walk = await walkCursor(api, pathTo("listWorkbooks", { deploymentId: dep }), { first: 100, query: { folderId: folder.id } });
    return { ids: walk.items.map((w: any) => w?.id).sort(), res: walk.pages.at(-1)?.res };
  };
  // What the folder holds: the source, and the clones of readings taken as valid (tracked, removed at cleanup).
  let held: unknown[] = [source.id];
  const spelled = spelledAsValid(ctx, "CloneWorkbookRequest");
  const absentReading = readableWithout(ctx.schemas.schema("CloneWorkbookRequest"));
  return {
    // A null body is no body: a plain clone.
    cases: badBodies(ctx, "CloneWorkbookRequest", { base: fc.constant({ shared: false }), nullIsAbsent: true, optionalRoot: true }),
    notJson: notJsonBodies(fc.constant({ shared: false })),
    send: sender("duplicateWorkbook", { deploymentId: dep, workbookId: source.id }, (res) => trackAnswered(ctx.scratch, dep, res)),
    async restore(api) {
      held = (await inFolder(api)).ids;
    },
    // The body is optional: a server may take the JSON string "" as none.
    lenient: (bad) => spelled(bad) || (bad.at === "" && bad.body === ""),
    // Any body that is no object (" ", [], false) may be taken as none, and a mistyped shared ({}, [], 1, null) as absent: a plain clone.
    ignorable: (bad) => bad.raw === undefined && ((bad.at === "" && !isObject(bad.body)) || absentReading(bad)),
    async faithful(api, _bad, res) {
      const made = res.isJson && Number.isSafeInteger(res.body?.id) ? [res.body.id] : [];
      const { ids, res: listed } = await inFolder(api);
      const beyond = ids.filter((id: unknown) => !held.includes(id) && !made.includes(id));
      ctx.expect.that(beyond.length === 0, `a body taken as a plain clone makes that clone only: the run's folder ${folder.id} holds nothing else new`, {
        expected: `${JSON.stringify(held)} and the clone answered`,
        got: ids,
        res: listed,
        reason: "beyond-request",
      });
    },
    async unchanged(api) {
      const { ids, res } = await inFolder(api);
      ctx.expect.equal(ids, held, `the run's folder ${folder.id} holds what it held (the source workbook): no clone was made`, { res, reason: "no-clone" });
    },
  };
}
