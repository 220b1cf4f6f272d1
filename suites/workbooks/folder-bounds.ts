import { group } from "../../core/check/check.js";
import { pathTo } from "../../core/transport/client.js";

/** E8's folderId is an integer with a stated minimum of 0: the value below it, as first=0 on the cursor lists. */
export const workbookFolderBoundChecks = group("workbooks", [
  {
    id: "workbooks.list.folder-id-below-minimum-rejected",
    spec: "E8 (folderId: integer, minimum 0)",
    // SHOULD, as offset=-1 on E1 and first=0 on the cursor lists: the minimum is stated, what a server does below it is not.
    level: "SHOULD",
    title: "folderId=-1, below the minimum of 0, is rejected with a 4xx",
    needs: ["fixture:deployment"],
    async run(ctx) {
      const path = pathTo("listWorkbooks", { deploymentId: ctx.fixture("deployment").id });
      // The list is served (a 4xx below would prove nothing from a server without the route).
      ctx.requireRoute(await ctx.api.get(path, { first: 1 }), "E8", "a page of one workbook");
      ctx.expect.clientError(await ctx.api.get(path, { folderId: -1 }), "E8: folderId=-1, below the minimum of 0, is rejected");
    },
  },
]);
