import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { statusLine } from "../../core/api/expect.js";
import type { Workbook } from "../../core/api/schema-types.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { walkAgainUntil, walkCursor } from "../../core/transport/pagination.js";
import { editableFolder } from "../lib/editable-folder.js";
import { WRITES } from "../lib/needs.js";
import { readOnlyFolder } from "../lib/read-only-folder.js";
import { bulkMove, itemKey, workbooksPath } from "../lib/workbook-calls.js";
import { inFolder } from "../lib/workbook-place.js";
import { ownWorkbook } from "../lib/workbook-writes.js";
import { cloneAndRead } from "./clone-and-read.js";

/**
 * E10 rule 4's "(inheriting its access)": the main key's workbook in a folder the readOnly key may
 * read but not edit (fixtures.readOnlyFolderId, else one found), cloned by the main key into that
 * folder. The spec states the clone's access, not that of a workbook created there: what the folder
 * gives the readOnly key is read on the source first, and the clone is judged against it.
 */
async function clonedInReadOnlyFolder(ctx: CheckContext) {
  const dep = ctx.fixture("deployment").id;
  const folderId = (await readOnlyFolder(ctx, dep)).id;
  const { workbook: source } = await ownWorkbook(ctx, ctx.api, dep, { folderId });
  const { answer: clone } = await cloneAndRead(ctx, dep, source.id);
  const placed = await inFolder(ctx, ctx.api, dep, clone.id, folderId, { answer: clone, witness: source.id });
  if (!placed.inside)
    throw new NotExercised(
      `the main key's clone ${clone.id} of workbook ${source.id} is not in folder ${folderId} (read from ${placed.how}): the main key may not edit that folder, so the clone inherits nothing of it (clone.placement.same-folder-with-edit judges the placement)`,
    );
  return { dep, folderId, source, clone };
}

export const cloneFolderAccessChecks = group("clone", [
  {
    id: "clone.placement.inherits-folder-read",
    spec: "E10 rule 4",
    // MUST: the rule states that the clone inherits its folder's access; the readOnly key's read access there is seen on the source.
    level: "MUST",
    title:
      "A clone created in a folder whose workbooks the readOnly key reads inherits that access: the readOnly key reads the clone (E9) and E8 lists it to that key in that folder",
    needs: [...WRITES, "token:readOnly"],
    reasons: {
      "clone-readable": { title: "The readOnly key reads the clone made in a folder it may read", expected: "200" },
      "clone-listed": { title: "E8 filtered by the folder lists the clone to the readOnly key, in that folder", expected: "the clone listed" },
    },
    async run(ctx) {
      const { dep, folderId, source, clone } = await clonedInReadOnlyFolder(ctx);
      const readOnly = ctx.as("readOnly");
      const read = (id: number) => readOnly.call("getWorkbook", { deploymentId: dep, workbookId: id });
      const witness = await read(source.id);
      if (witness.status !== 200)
        throw new NotExercised(
          `the readOnly key reads not even the source ${source.id} in folder ${folderId} (E9: ${statusLine(witness)}): that folder gives it no read access to a workbook in it`,
        );
      const res = await read(clone.id);
      ctx.expect.that(
        res.status === 200,
        `the readOnly key reads the clone ${clone.id}, made in folder ${folderId}, as it reads the source ${source.id} there`,
        {
          expected: "200",
          got: statusLine(res),
          res,
          reason: "clone-readable",
        },
      );
      const walk = await walkAgainUntil(
        () => walkCursor<Workbook>(readOnly, workbooksPath(dep), { first: 50, query: { folderId }, endpoint: "E8" }),
        (w) => w.partial || w.items.some((x) => x?.id === clone.id),
      );
      const listed = walk.items.find((x) => x?.id === clone.id);
      if (!listed && walk.partial) throw new NotExercised(`the readOnly key's walk of folder ${folderId} (E8) runs past the page budget (--max-pages)`);
      if (!listed && !walk.items.some((x) => x?.id === source.id))
        throw new NotVerifiable(`E8 filtered by folderId=${folderId} lists not even the source ${source.id} to the readOnly key, which reads it (E9)`);
      // folderId is optional on a Workbook: where the item shows it, it names the folder; the filter alone places it otherwise.
      ctx.expect.that(
        listed !== undefined && (!("folderId" in listed) || listed.folderId === folderId),
        `E8 filtered by folderId=${folderId} lists the clone ${clone.id} to the readOnly key, in that folder`,
        {
          expected: `workbook ${clone.id} with folderId ${folderId}`,
          got: listed ?? walk.items.map((x) => x?.id),
          res: walk.pages.at(-1)?.res,
          reason: "clone-listed",
        },
      );
    },
  },
  {
    id: "clone.placement.inherits-no-edit",
    spec: "E10 rule 4; E12; E11 rule 4; Authentication 4",
    // SHOULD: that the readOnly key may not edit the folder is read from a refused folder create (a rule
    // of the facts, not of the spec), and that a move needs more than read access is E11 rule 4's rule
    // for a move by upsert, which E12 applies per item; the spec orders read, edit and manage nowhere.
    level: "SHOULD",
    title:
      "A clone created in a folder the readOnly key may not edit gives that key no more: moved by it (into a folder of its own) beside the source, the clone is not moved wherever the source is not, and stays in the folder",
    needs: [...WRITES, "token:readOnly"],
    reasons: {
      "clone-move-refused": { title: "The readOnly key's move of the clone is refused, as the source's is", expected: "the clone not in moved" },
      "clone-stays": { title: "The clone stays in the folder the readOnly key may not edit", expected: "in the folder" },
    },
    async run(ctx) {
      const { dep, folderId, source, clone } = await clonedInReadOnlyFolder(ctx);
      const destination = (await editableFolder(ctx, dep)).id;
      const [copy, original] = [
        { type: "WORKBOOK", id: clone.id },
        { type: "WORKBOOK", id: source.id },
      ] as const;
      // The source beside the clone tells what the folder lets the key do: the spec states the clone's access only.
      // Should the server wrongly move either, both are the run's own: cleanup finds them wherever they are.
      const res = await bulkMove(ctx.as("readOnly"), dep, [copy, original], destination);
      ctx.requireRoute(res, "E12", "the readOnly key's bulk move");
      const moved = res.status === 200 ? (ctx.expect.ok(res, "BulkMoveResponse").moved ?? []).map(itemKey) : [];
      if (res.status !== 200)
        ctx.expect.clientError(res, "the readOnly key's move of the clone and the source: a request error (4xx) when not reported per item");
      if (moved.includes(itemKey(original)))
        throw new NotExercised(
          `the readOnly key moved the main key's source ${source.id} out of folder ${folderId}: the folder lets it move what is in it, so the clone's move says nothing of what it inherited`,
        );
      ctx.expect.that(
        !moved.includes(itemKey(copy)),
        `the readOnly key's move of the clone ${clone.id} out of folder ${folderId} is refused, as the source's is`,
        {
          expected: `moved without ${itemKey(copy)}`,
          got: moved,
          res,
          reason: "clone-move-refused",
        },
      );
      const stayed = await inFolder(ctx, ctx.api, dep, clone.id, folderId, { witness: source.id });
      ctx.expect.that(stayed.inside, `the clone ${clone.id} is still in folder ${folderId} after the readOnly key's refused move (read from ${stayed.how})`, {
        expected: `in folder ${folderId}`,
        got: `elsewhere (${stayed.how})`,
        res: stayed.res ?? res,
        reason: "clone-stays",
      });
    },
  },
]);
