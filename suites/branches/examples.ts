import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotExercised, NotVerifiable, Skip } from "../../core/model/outcome.js";
import type { ServedModel } from "../../core/served/model.js";
import { field } from "../../core/served/served-operations.js";
import { branchesByName, documented, ok2xx, ownBranch, shownStatus } from "../lib/e14.js";
import { cursorList } from "../lib/cursor-list.js";
import { WRITES } from "../lib/needs.js";

/**
 * E14 rules of branches (/build/api/v1): a delete by branchName re-parents the children, and
 * takes removeOnUpstream; the list is cursor-paginated (0.4.0).
 */
export const branchChecks = [
  ...group("branches", [
    {
      id: "branches.delete.children-reparented",
      spec: "E14 rule 4",
      level: "MUST",
      title:
        "Deleting a branch by branchName re-parents every one of its children (two shared ones, and a personal one where the create documents how to make it) to the deleted branch's parent, with removeOnUpstream true or false as well as without it",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const flag = doc.findNamed("deleteBranch")?.queryParam("removeOnUpstream")?.name;
        // A personal development branch as a third child, where the create documents how to make one.
        const personal = doc.findNamed("createBranch")?.bodyProperty("personal|isPersonal");
        // Re-parenting is the delete's own rule, whatever else the delete is asked to do: a server once skipped it with removeOnUpstream=true.
        const forms: Record<string, string>[] = [{}, ...(flag ? [{ [flag]: "true" }, { [flag]: "false" }] : [])];
        for (const extra of forms) {
          const how = Object.keys(extra).length ? ` with ${new URLSearchParams(extra)}` : "";
          const parent = await ownBranch(ctx, doc, dep);
          // Two children: a server once re-parented only the first.
          const children = [await ownBranch(ctx, doc, dep, parent), await ownBranch(ctx, doc, dep, parent)];
          const personalChild = personal ? await personalBranch(ctx, doc, dep, parent, personal) : undefined;
          const made = [parent, ...children, ...(personalChild ? [personalChild] : [])];
          const before = await branchesByName(ctx, dep, made);
          if (!before.has(parent)) throw new NotExercised(`the branch ${parent}, created by the run, is not in the branches list: no delete to judge`);
          const grand = field(before.get(parent), "parentBranch|parent");
          for (const child of children) {
            const childParent = field(before.get(child), "parentBranch|parent");
            if (childParent !== parent)
              throw new NotExercised(`the branch created from ${parent} lists parentBranch ${JSON.stringify(childParent)}: no parent link to re-parent`);
          }
          // "Children" are every child: a server once re-parented its shared children and left a personal one pointing at the deleted branch.
          if (personalChild && field(before.get(personalChild), "parentBranch|parent") === parent) children.push(personalChild);
          const res = await ctx.api.call("deleteBranch", { deploymentId: dep }, { query: { branchName: parent, ...extra } });
          ctx.expect.that(res.status >= 200 && res.status < 300, `DELETE branches?branchName=${how} deletes the branch`, {
            expected: "2xx",
            got: res.status,
            res,
            reason: "status",
          });
          const after = await branchesByName(ctx, dep, children);
          ctx.expect.that(!after.has(parent), `branch ${parent} is gone after its delete${how}`, {
            expected: "not listed",
            got: after.get(parent),
            reason: "deleted",
          });
          for (const child of children)
            ctx.expect.equal(
              field(after.get(child), "parentBranch|parent") ?? null,
              grand ?? null,
              `the child ${child} now has the deleted branch's parent, after the delete${how}`,
              { reason: "reparented" },
            );
        }
      },
    },
    {
      id: "branches.create.name-free-after-delete",
      spec: "E14 (list, create, delete a branch)",
      // SHOULD: that a deleted branch's name can be given again is implied by deletion, not stated.
      level: "SHOULD",
      title: "A branch deleted by branchName frees its name: a branch created again with that name is accepted",
      needs: [...WRITES],
      async run(ctx) {
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        // ownBranch's cleanup deletes the name, whichever branch holds it then.
        const name = await ownBranch(ctx, doc, dep);
        const gone = await ctx.api.call("deleteBranch", { deploymentId: dep }, { query: { branchName: name } });
        if (gone.status < 200 || gone.status >= 300)
          throw new NotExercised(`deleting the run's branch ${name} answered ${gone.status}: there is no freed name`);
        const create = doc.requireNamed("createBranch", "creates a branch of the run's own");
        const again = await ctx.api.call("createBranch", { deploymentId: dep }, { body: create.body({ "name|branchName": name }) });
        ctx.expect.that(again.status >= 200 && again.status < 300, `a branch created again as ${name}, after that branch was deleted, is accepted`, {
          expected: "2xx",
          got: `${again.status} ${again.text.slice(0, 160)}`,
          res: again,
          reason: "status",
        });
      },
    },
    {
      id: "branches.list.cursor",
      spec: "E14 rule 11; Pagination styles 2",
      level: "MUST",
      title: "The branches list is cursor-paginated: first bounds a page, after continues it, items and pageInfo (0.4.0)",
      needs: ["fixture:deployment"],
      run: (ctx) => cursorList(ctx, "listBranches", { deploymentId: ctx.fixture("deployment").id }, "branches"),
    },
    {
      id: "branches.delete.remove-on-upstream",
      spec: "E14 rule 4",
      level: "MUST",
      title: "A branch delete by branchName with removeOnUpstream=true is accepted and deletes the branch",
      needs: [...WRITES],
      async run(ctx) {
        // The remote ref is not observable through this API; what is: the flag is taken, the branch goes.
        const dep = ctx.fixture("deployment").id;
        const doc = await documented(ctx);
        const remove = doc.requireNamed("deleteBranch", "deletes a branch");
        const byName = remove.requireQueryParam("branchName", "the spec names branchName as the delete's query");
        const flag = remove.requireQueryParam("removeOnUpstream", "E14 names removeOnUpstream on the branch delete");
        const branch = await ownBranch(ctx, doc, dep);
        const res = await ctx.api.call("deleteBranch", { deploymentId: dep }, { query: { [byName]: branch, [flag]: "true" } });
        ctx.requireRoute(res, "E14", "deleting a branch");
        ctx.expect.that(ok2xx(res), `deleting ${branch} with removeOnUpstream=true is accepted`, {
          expected: "2xx",
          got: shownStatus(res),
          res,
          reason: "remove-on-upstream-accepted",
        });
        const after = await branchesByName(ctx, dep);
        ctx.expect.that(!after.has(branch), `branch ${branch} is gone after its delete`, {
          expected: "not listed",
          got: after.get(branch),
          reason: "branch-deleted",
        });
      },
    },
  ]),
];

/**
 * A personal development branch of the caller's, from `parent`, made through the create's documented
 * `personal` property; undefined where the server refuses it (the shared children still make the check).
 */
async function personalBranch(ctx: CheckContext, doc: ServedModel, dep: string, parent: string, personal: string): Promise<string | undefined> {
  try {
    return await ownBranch(ctx, doc, dep, parent, { [personal]: true });
  } catch (err) {
    if (err instanceof NotVerifiable || err instanceof Skip) return undefined;
    throw err;
  }
}
