import { group } from "../../core/check/check.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { walkCursor } from "../../core/transport/pagination.js";
import type { Response } from "../../core/transport/http.js";
import { createFolder, createWorkbook } from "../lib/scratch-items.js";
import { workbooksPath } from "../lib/workbook-calls.js";
import { WRITES } from "../lib/needs.js";
import { ancestorsExpected, holdsAncestors } from "../lib/folder-path.js";

/** How deep the run's folders nest at least: a path of two ancestors or more, which a server may cut on one read path only. */
const DEPTH = 3;
/**
 * How deep they nest where the server takes it: a server once cut folderPath at three ancestors. The
 * platform publishes a maximum depth without its value (facts): past DEPTH, a refused create ends the nesting.
 */
const DEEPEST = 6;

export const workbookFolderPathChecks = group("workbooks", [
  {
    id: "workbooks.folder-path.every-read-path",
    spec: "Resources / Workbook (folderPath: ancestors of the containing folder); E8; E9",
    level: "MUST",
    title: `A workbook ${DEPTH} to ${DEEPEST} folders deep (as deep as the server nests them) shows every ancestor in folderPath, on E9 and in E8's list alike`,
    needs: [...WRITES],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const folders: number[] = [];
      for (let i = 0; i < DEEPEST; i++) {
        const made = await createFolder(ctx, dep, folders.at(-1) ?? null).catch((err) => {
          if (i < DEPTH || !(err instanceof NotVerifiable)) throw err;
          return undefined;
        });
        if (!made) break;
        folders.push(made.id);
      }
      const workbook = await createWorkbook(ctx, dep, folders.at(-1)!);
      const got = await ctx.api.call("getWorkbook", { deploymentId: dep, workbookId: workbook.id });
      const walk = await walkCursor<any>(ctx.api, workbooksPath(dep), { first: 100, stopAfter: 5, query: { folderId: folders.at(-1) }, endpoint: "E8" });
      const listed = walk.items.find((w) => w?.id === workbook.id);
      let judged = 0;
      for (const [where, record, res] of [
        ["E9", ctx.expect.ok(got), got],
        ["E8's list", listed, walk.pages.at(-1)?.res],
      ] as [string, any, Response | undefined][]) {
        if (!Array.isArray(record?.folderPath)) continue;
        judged++;
        ctx.expect.that(holdsAncestors(record.folderPath, folders), `${where}: workbook ${workbook.id}'s folderPath lists its ${folders.length} ancestors`, {
          expected: ancestorsExpected(folders),
          got: record.folderPath.map((f: any) => f?.id),
          res,
          reason: "folder-path-every-ancestor",
        });
      }
      if (!judged) throw new NotExercised(`neither E9 nor E8's list shows a folderPath (an optional field) for workbook ${workbook.id}`);
    },
  },
]);
