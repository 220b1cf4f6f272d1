import { group } from "../../core/check/check.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import { walkCursor } from "../../core/transport/pagination.js";
import { pathTo } from "../../core/transport/client.js";
import { field } from "../../core/served/served-operations.js";
import { propertiesOf } from "../../core/served/answers.js";
import { createFolder, createFolderWith } from "../lib/scratch-items.js";
import { documented } from "../lib/e14.js";

/**
 * The places asked for, in the order the folders are made under a parent of the run's own that holds
 * one folder first: 0, the first place (a value a careless `position || next` drops), then 1, beside it.
 */
const ASKED = [0, 1];

export const workspacePositionChecks = group("workspace", [
  {
    id: "workspace.folders.position-kept",
    spec: "E14 (POST .../folders; facts: a folder is made from {name, parentId?, position?}, and a folder item has position)",
    // SHOULD: the position field is the published documentation's (facts), not the spec's.
    level: "SHOULD",
    title:
      "A folder made at a position holds it: 0 (the first place) and 1, among siblings of the run's own, each in the create's answer where it shows one and in the folders list of its parent",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const served = (await documented(ctx)).findNamed("createFolder");
      const props = served ? propertiesOf(served.bodySchema()) : {};
      if (Object.keys(props).length && !("position" in props))
        throw new NotVerifiable("the server's document shows no position in a folder create's body (facts: {name, parentId?, position?})");
      const parent = await createFolder(ctx, dep);
      // A sibling first, so that each place asked for is one another folder already had.
      await createFolder(ctx, dep, parent.id);
      const made: { id: number; position: number }[] = [];
      for (const position of ASKED) {
        const { ref, res } = await createFolderWith(ctx, dep, parent.id, { position });
        made.push({ id: ref.id, position });
        const answered = field(served?.record(res) ?? res.body, "position");
        if (answered !== undefined)
          ctx.expect.equal(answered, position, `the folder made at position ${position} is answered at it`, { res, reason: "position-answered" });
      }
      const listed = await walkCursor<any>(ctx.api, pathTo("listFolders", { deploymentId: dep }), { first: 100, stopAfter: 5, query: { parentId: parent.id } });
      const res = listed.pages.at(-1)?.res;
      for (const { id, position } of made) {
        const item = listed.items.find((f) => field(f, "id") === id);
        if (item === undefined || field(item, "position") === undefined)
          throw new NotVerifiable(`the folders list under parentId=${parent.id} shows ${item === undefined ? `no folder ${id}` : "no position"}`);
        ctx.expect.equal(field(item, "position"), position, `folder ${id}, made at position ${position}, is listed at it under its parent ${parent.id}`, {
          res,
          reason: "position-listed",
        });
      }
    },
  },
]);
