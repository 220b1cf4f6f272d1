import { group } from "../../core/check/check.js";
import { NotExercised } from "../../core/model/outcome.js";
import { walkCursor } from "../../core/transport/pagination.js";
import { pathTo } from "../../core/transport/client.js";
import { field } from "../../core/served/served-operations.js";
import type { Response } from "../../core/transport/http.js";
import { TOOL_NAME } from "../../core/ledger/scratch.js";

/** Folders whose children are listed, at most, and children of each whose own children are. */
const PARENTS = 5;
const CHILDREN = 3;

export const workspaceFolderChecks = group("workspace", [
  {
    id: "workspace.folders.one-level",
    spec: "E14 (GET .../folders; facts: lists one level, the root or the children of parentId)",
    // SHOULD: one level is the published documentation's (facts), not the spec's.
    level: "SHOULD",
    title:
      "The folders list gives one level: at the root no folder with a parent, under parentId only that folder's children (none whose parentId is another, none its child lists too)",
    needs: ["fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const path = pathTo("listFolders", { deploymentId: dep });
      ctx.requireRoute(await ctx.api.call("listFolders", { deploymentId: dep }), "E14", "listing the folders");
      const walks: { parentId?: number; pages: { res: Response }[] }[] = [];
      const level = async (parentId?: number) => {
        const walk = await walkCursor<any>(ctx.api, path, { first: 100, stopAfter: 5, query: { parentId } });
        walks.push({ parentId, pages: walk.pages });
        return walk.items;
      };
      const root = await level();
      const nested = root.filter((f) => field(f, "parentId") != null);
      ctx.expect.equal(
        nested.map((f) => field(f, "id")),
        [],
        "no folder listed at the root has a parent",
        { reason: "one-level" },
      );
      let judged = 0;
      // Not a folder the tool made: the scratch folders of checks running beside this one have no children and may
      // vanish mid-walk, and on a server that lists by name (cf-…) they would take every one of the first places.
      const parents = root.filter((f) => !TOOL_NAME.test(String(field(f, "name") ?? ""))).slice(0, PARENTS);
      for (const parent of parents) {
        const id = field(parent, "id");
        const children = await level(id);
        // A list under parentId that holds the parent itself, or only root folders, did not apply parentId: one level is not judged there.
        const rootIds = new Set(root.map((f) => String(field(f, "id"))));
        // The tool's folders are left out of that judgement: one another check makes meanwhile is in no root list read before.
        const notTools = children.filter((c) => !TOOL_NAME.test(String(field(c, "name") ?? "")));
        if (!notTools.length || notTools.every((c) => rootIds.has(String(field(c, "id"))))) continue;
        const elsewhere = children.filter((c) => field(c, "parentId") != null && String(field(c, "parentId")) !== String(id));
        ctx.expect.equal(
          elsewhere.map((c) => field(c, "id")),
          [],
          `no folder listed under parentId=${id} has another parent`,
          { reason: "one-level" },
        );
        judged++;
        const ids = new Set(children.map((c) => String(field(c, "id"))));
        // Nor a child the tool made (a probe for a read-only folder, another check's scratch): it may vanish mid-walk,
        // and a list under a parentId that names nothing any more is no level of the tree.
        for (const child of notTools.slice(0, CHILDREN)) {
          const grandchildren = await level(field(child, "id"));
          const twice = grandchildren.filter((g) => ids.has(String(field(g, "id"))));
          ctx.expect.equal(
            twice.map((g) => field(g, "id")),
            [],
            `no folder is listed both under parentId=${id} and under its child ${field(child, "id")}`,
            { reason: "one-level" },
          );
        }
      }
      // The deprecated `data` copy (facts: the folders list keeps it) is a read path too: the level asked for holds there as in items.
      for (const { parentId, pages } of walks)
        for (const { res } of pages) {
          const copy = Array.isArray(res.body?.data) ? res.body.data : [];
          // Ids compared as text: a server may type them as strings, or as 5001.0.
          const elsewhere = copy.filter((f: any) => field(f, "parentId") !== undefined && String(field(f, "parentId") ?? "") !== String(parentId ?? ""));
          ctx.expect.equal(
            elsewhere.map((f: any) => field(f, "id")),
            [],
            `the deprecated data copy of the folders list ${parentId === undefined ? "at the root" : `under parentId=${parentId}`} holds no folder of another level`,
            { res, reason: "one-level" },
          );
        }
      if (!judged)
        throw new NotExercised(`none of the first ${parents.length} root folders the tool did not make lists a child: there is no level below to keep apart`);
    },
  },
]);
