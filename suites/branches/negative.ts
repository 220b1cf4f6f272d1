import { group } from "../../core/check/check.js";
import { branchesByName, documented, ownBranch } from "../lib/e14.js";
import { ownDeployment } from "../lib/own-deployment.js";

/**
 * E14 rule 4 over the whole domain of branchName (core/api/input-domain.ts, deleteBranch: empty,
 * whitespace-padded, non-ASCII, longer than 255): a delete addresses the branch of the name it
 * takes, so a name no branch holds deletes none. The status of such a refusal is not shown for a
 * delete (facts give 404 for an unknown branch on E4 only), and a 2xx is what HTTP gives a DELETE
 * of what is already gone: any answer below 500 passes, the branches read back are the judgement.
 * A name the run did not give may reach a branch of someone's (an empty one read as "the current
 * branch"): these deletes go only to a deployment the run made.
 */
export const branchNameChecks = group("branches", [
  {
    id: "branches.delete.unknown-name",
    spec: "E14 rule 4",
    level: "MUST",
    title: "A branch delete by a branchName no branch holds (empty, whitespace-padded, non-ASCII, longer than 255) is answered below 500 and deletes no branch",
    needs: ["writes", "deployment-lifecycle", "fixture:deployment"],
    async run(ctx) {
      const doc = await documented(ctx);
      const byName = doc.requireNamed("deleteBranch", "deletes a branch").requireQueryParam("branchName", "the spec names branchName as the delete's query");
      const dep = await ownDeployment(ctx, doc.operations, ctx.fixture("deployment").id, "to send branch deletes by names it did not give");
      // A branch beside the default one: a delete that takes a name for another's has one to take.
      await ownBranch(ctx, doc, dep);
      const absent = ctx.scratch.slug("absent");
      let before = await branchesByName(ctx, dep);
      for (const name of ["", `  ${absent}  `, `${absent}-ünïcödé-✓`, `${absent}-${"x".repeat(256)}`]) {
        const shown = `${JSON.stringify(name.slice(0, 24))}${name.length > 24 ? "…" : ""}`;
        const res = await ctx.api.call("deleteBranch", { deploymentId: dep }, { query: { [byName]: name } });
        ctx.expect.that(res.status < 500, `a delete of branchName=${shown}, which no branch holds, is answered below 500`, {
          expected: "a status below 500",
          got: res.status,
          res,
          reason: "no-5xx",
        });
        const after = await branchesByName(ctx, dep);
        const gone = [...before.keys()].filter((n) => !after.has(n));
        ctx.expect.equal(gone, [], `the branches of deployment ${dep} that a delete of branchName=${shown} removed`, {
          res,
          reason: "unknown-name-deletes-none",
        });
        before = after;
      }
    },
  },
]);
