import { groupedById } from "../../core/check/check.js";
import { putBySlug } from "../lib/workbook-writes.js";
import { VIEWER, namedIn } from "../lib/viewer.js";

export const upsertRoleAccessChecks = groupedById([
  {
    id: "upsert.access.viewer-create-refused",
    spec: "E11 rule 4; Authentication 4",
    level: "MUST",
    title: "A caller below the AI BI User role cannot create a workbook by slug, and the slug holds no workbook after",
    needs: [...VIEWER],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const slug = ctx.scratch.slug("viewer");
      const name = ctx.scratch.name("viewer");
      const res = await putBySlug(ctx.scratch, ctx.as("viewer"), dep, slug, { name });
      ctx.expect.clientError(res, `creating a workbook by slug ${slug} as a caller below AI BI User is refused`, "role-refused");
      ctx.expect.equal(await namedIn(ctx, dep, name), [], `no workbook named ${name} was made by the refused create`, { res, reason: "nothing-created" });
    },
  },
]);
