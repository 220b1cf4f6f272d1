import { group } from "../../core/check/check.js";
import { ownWorkbook, putBySlug, readWorkbook } from "../lib/workbook-writes.js";

/** Resources / Workbook: a slug identifies a workbook within its deployment, not across the tenant. */
export const upsertPerDeploymentChecks = group("upsert", [
  {
    id: "upsert.slug.per-deployment",
    spec: "Resources / Workbook (slug: deployment-scoped identity); E11 rule 2 (a workbook with the slug in the deployment)",
    level: "MUST",
    title:
      "A slug is a workbook's identity within its deployment: the slug of one deployment's workbook creates a workbook of its own in another deployment, and an update through either leaves the other as it was",
    needs: ["writes", "fixture:deployment", "fixture:namedOtherDeployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const other = ctx.fixture("namedOtherDeployment").id;
      const { slug, workbook: first } = await ownWorkbook(ctx, ctx.api, dep, { meta: { side: "first" } });
      const { workbook: before } = await readWorkbook(ctx, ctx.api, dep, first.id);
      // The same slug under the other deployment: a create there, not an update of the first.
      const res = await putBySlug(ctx.scratch, ctx.api, other, slug, { name: ctx.scratch.name("second"), meta: { side: "second" } });
      ctx.expect.that(
        res.status >= 200 && res.status < 300,
        `the slug ${slug}, held in deployment ${dep}, is free in deployment ${other}: its upsert there is taken`,
        {
          expected: "a 2xx answer: a workbook created in the other deployment",
          got: `${res.status} ${res.text.slice(0, 160)}`,
          res,
          reason: "slug-per-deployment",
        },
      );
      const second = ctx.expect.ok(res, "Workbook");
      ctx.expect.that(
        second.id !== first.id && String(second.deploymentId) === other,
        `the upsert in deployment ${other} answers a workbook of that deployment, not ${first.id}`,
        {
          expected: `a new workbook, deploymentId ${other}`,
          got: `workbook ${second.id}, deploymentId ${second.deploymentId}`,
          res,
          reason: "slug-per-deployment",
        },
      );
      const kept = await readWorkbook(ctx, ctx.api, dep, first.id);
      ctx.expect.equal(
        { name: kept.workbook.name, meta: kept.workbook.meta },
        { name: before.name, meta: before.meta },
        `workbook ${first.id} of deployment ${dep}, after its slug was upserted in deployment ${other}`,
        { res: kept.res, reason: "holder-unchanged" },
      );
      // And back: an update through the first deployment reaches its own workbook only.
      const renamed = ctx.scratch.name("first-renamed");
      ctx.expect.ok(await putBySlug(ctx.scratch, ctx.api, dep, slug, { name: renamed }), "Workbook");
      const theirs = await readWorkbook(ctx, ctx.api, other, second.id);
      ctx.expect.equal(theirs.workbook.name, second.name, `workbook ${second.id} of deployment ${other}, after the slug was updated in deployment ${dep}`, {
        res: theirs.res,
        reason: "holder-unchanged",
      });
    },
  },
]);
