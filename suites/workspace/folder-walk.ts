import { group } from "../../core/check/check.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { walkCursor } from "../../core/transport/pagination.js";
import { pathTo } from "../../core/transport/client.js";
import { field } from "../../core/served/served-operations.js";
import { expectWalkCovers, WHOLE_PAGE } from "../lib/cursor-walk.js";
import { createFolder } from "../lib/scratch-items.js";

/** The folders made under a parent of the run's own: enough for five pages of one and a partly filled last page of two. */
const CHILDREN = 5;

export const workspaceFolderWalkChecks = group("workspace", [
  {
    id: "workspace.folders.cursor-walk",
    spec: "E14 (GET .../folders: a list; cursor pagination since 0.1.x); Pagination styles 2",
    level: "MUST",
    title: "Walked one and two folders a page (after = endCursor), the folders list yields every folder of the level once",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const path = pathTo("listFolders", { deploymentId: dep });
      // Under a parent of the run's own (facts: the list gives one level, parentId's children): the level
      // holds the run's folders alone, which no check beside this one adds to or removes from.
      const parent = await createFolder(ctx, dep);
      const made: string[] = [];
      for (let i = 0; i < CHILDREN; i++) made.push(String((await createFolder(ctx, dep, parent.id)).id));
      const query = { parentId: parent.id };
      ctx.requireRoute(await ctx.api.call("listFolders", { deploymentId: dep }, { query: { parentId: parent.id } }), "E14", "listing the folders");
      const whole = await walkCursor<any>(ctx.api, path, { first: WHOLE_PAGE, query });
      const listed = whole.items.map((f) => String(field(f, "id")));
      if (whole.partial || listed.length !== CHILDREN || !made.every((id) => listed.includes(id)))
        throw new NotVerifiable(
          `the folders list under parentId=${parent.id} gave ${listed.length} folder(s), not the ${CHILDREN} the run made there: the level is not the run's alone`,
        );
      let crossed = 0;
      for (const first of [1, 2]) {
        const walk = await walkCursor<any>(ctx.api, path, { first, query, maxPages: CHILDREN + 2 });
        if (walk.pages.length > 1) crossed++;
        expectWalkCovers(
          ctx.expect,
          walk.items.map((f) => String(field(f, "id"))),
          listed,
          `folder (parentId=${parent.id}, first=${first})`,
          walk.pages.at(-1)?.res,
        );
      }
      if (!crossed) throw new NotExercised(`no walk at first=1 or first=2 of ${CHILDREN} folders took more than one page`);
    },
  },
]);
