import { group } from "../../core/check/check.js";
import { NotVerifiable } from "../../core/model/outcome.js";
import { DEFAULT_LIMIT, DEPLOYMENTS_PATH, deploymentsOf } from "../../core/transport/deployments.js";
import { walkAgainUntil, walkOffset } from "../../core/transport/pagination.js";
import { documented, ok2xx, setup } from "../lib/e14.js";
import { ownDeployment } from "../lib/own-deployment.js";
import { putBySlug } from "../lib/workbook-writes.js";

/** E11 rule 6 for a deployment that existed: one the run made, deleted, then written to by slug. */
export const upsertDeletedDeploymentChecks = group("upsert", [
  {
    id: "upsert.deployment.deleted-404",
    spec: "E11 rule 6; Errors 2 (404: deployment missing on upsert); E14 (DELETE /api/v1/deployments/{deploymentId})",
    level: "MUST",
    title: "An upsert under a deployment deleted a moment ago (one the run made, no longer listed by E1) is a 404",
    // Only a deployment the run made and deleted: no other is ever deleted (the write plan says so).
    needs: ["writes", "deployment-lifecycle", "fixture:deployment"],
    async run(ctx) {
      const doc = await documented(ctx);
      const dep = await ownDeployment(ctx, doc.operations, ctx.fixture("deployment").id, "to delete and then write to");
      // Any 2xx, with a body or none (a 204).
      setup(ctx, await ctx.api.call("deleteDeployment", { deploymentId: dep }), `deleting the run's deployment ${dep}`, ok2xx);
      // A delete may take a moment to show: the rule is judged once E1 no longer lists the deployment.
      const listed = async () => new Set((await walkOffset(ctx.api, DEPLOYMENTS_PATH, DEFAULT_LIMIT, deploymentsOf)).items.map((d: any) => String(d?.id)));
      if ((await walkAgainUntil(listed, (ids) => !ids.has(dep))).has(dep))
        throw new NotVerifiable(`E1 still lists deployment ${dep} after its delete was answered: it is not gone yet`);
      const slug = ctx.scratch.slug("after-delete");
      const res = await putBySlug(ctx.scratch, ctx.api, dep, slug, { name: ctx.scratch.name("after-delete") });
      ctx.expect.status(res, 404, `upsert under deployment ${dep}, deleted and no longer listed by E1`);
    },
  },
]);
