import { group } from "../../core/check/check.js";
import { walkCursor, wholeList } from "../../core/transport/pagination.js";
import { cloneOwn } from "./clone-and-read.js";
import { NotExercised } from "../../core/model/outcome.js";
import { createFolder, createWorkbook, deletedItem } from "../lib/scratch-items.js";
import { workbooksPath } from "../lib/workbook-calls.js";
import { duplicate, trackAnswered } from "../lib/workbook-writes.js";

/** E10 rules 7-8: the refusals that are not about access: the plan's workbook limit, and a workbook the deployment does not hold. */
export const cloneLimitAndMissingChecks = group("clone", [
  {
    id: "clone.limit.reached-400",
    spec: "E10 rule 7; Errors 2; Limits",
    level: "MUST",
    title: "Cloning when the plan's workbook limit is reached is a 400, and no workbook is created",
    needs: ["writes", "fixture:workbookLimitDeployment"],
    async run(ctx) {
      const { id: dep, workbookId } = ctx.fixture("workbookLimitDeployment");
      // Only this check writes into that deployment: its list holds still around the refused clone.
      const listed = async () =>
        wholeList(await walkCursor(ctx.api, workbooksPath(dep), { first: 100, endpoint: "E8" }), "workbooks").items.map((w: any) => w?.id);
      const before = await listed();
      ctx.expect.status(await duplicate(ctx.scratch, ctx.api, dep, workbookId), 400, "clone in a deployment whose workbook limit is reached");
      ctx.expect.equal(await listed(), before, `the workbooks E8 lists in deployment ${dep} after the refused clone`, { reason: "nothing-created" });
    },
  },
  {
    id: "clone.missing.unknown-id-404",
    spec: "E10 rule 8; Errors 2",
    level: "MUST",
    title: "Cloning a workbook that does not exist is a 404",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      await cloneOwn(ctx, dep);
      const gone = await deletedItem(ctx, dep, "WORKBOOK");
      ctx.expect.status(await duplicate(ctx.scratch, ctx.api, dep, gone.id), 404, "clone of a deleted workbook");
    },
  },
  {
    id: "clone.missing.other-deployment-404",
    spec: "E10 rule 8; Errors 2",
    level: "MUST",
    title: "Cloning, under one deployment, a workbook of another deployment is a 404",
    needs: ["writes", "fixture:deployment", "fixture:namedOtherDeployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      await cloneOwn(ctx, dep);
      const theirs = await createWorkbook(ctx, ctx.fixture("namedOtherDeployment").id);
      ctx.expect.status(await duplicate(ctx.scratch, ctx.api, dep, theirs.id), 404, "clone of another deployment's workbook");
    },
  },
  {
    id: "clone.missing.not-a-workbook",
    spec: "E10 rule 8; Errors 2",
    level: "MUST",
    title:
      "Cloning by an id that names no workbook clones nothing: a folder's id (a workspace item of another type) and a path segment of a workbook's digits and letters are each a 4xx",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      await cloneOwn(ctx, dep);
      const own = await createWorkbook(ctx, dep);
      // Another kind's id (core/api/input-domain.ts, class other-kind): E9 may show the folder as an item of type FOLDER, never as a workbook.
      const folder = await createFolder(ctx, dep);
      const read = await ctx.api.call("getWorkbook", { deploymentId: dep, workbookId: folder.id });
      if (read.status === 200 && read.body?.type !== "FOLDER") throw new NotExercised(`the id of the run's folder, ${folder.id}, also reads as a workbook`);
      // Rule 8 names 404 for a workbook that does not exist; a server that shows the folder as an item may call it no workbook with a 400.
      ctx.expect.clientError(await duplicate(ctx.scratch, ctx.api, dep, folder.id), `clone by the id of a folder (${folder.id}), which names no workbook`);
      // A value that is no id (class not-an-id), led by the digits of a workbook the deployment holds: a 400 as malformed, or a 404 as naming none.
      const notAnId = `${own.id}abc`;
      const res = await ctx.api.call("duplicateWorkbook", { deploymentId: dep, workbookId: notAnId });
      trackAnswered(ctx.scratch, dep, res);
      ctx.expect.clientError(res, `clone by the path segment ${notAnId}, which names no workbook`);
    },
  },
]);
