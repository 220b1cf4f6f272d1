import fc from "fast-check";
import { groupedById } from "../../core/check/check.js";
import { NotExercised } from "../../core/model/outcome.js";
import { walkOffset } from "../../core/transport/pagination.js";
import { forAll, CASES_AT_ONCE } from "../../core/run/property.js";
import { pageSize } from "../../generators/index.js";
import { expectPagesCapped, expectWalkCovers } from "../lib/cursor-walk.js";
import { currentEnvironments, legacyEnvironments, offsetPaged } from "../lib/environment-list.js";
import { pathTo } from "../../core/transport/client.js";
import { SURE_LIMIT } from "../lib/cursor-walk.js";

export const environmentPropertyChecks = groupedById([
  {
    id: "environments.legacy.any-limit",
    spec: "Pagination styles 1; E2 (offset and limit; deprecated data)",
    level: "MUST",
    title:
      "For any limit from 1 to n+2, every page of an offset walk of the environments' deprecated data holds at most limit environments, and the walk yields every environment exactly once",
    kind: "property",
    needs: ["fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const path = pathTo("listEnvironments", { deploymentId: dep });
      const whole = (await currentEnvironments(ctx.api, ctx.expect, dep)).environments.map((e) => String(e.id));
      if (!whole.length) throw new NotExercised("the deployment lists no environment: there is nothing to walk");
      const head = await ctx.api.get(path, { limit: 1 });
      if (!offsetPaged(head.body))
        throw new NotExercised(
          "the environments list sends no deprecated data array (nor data.environments) with a pagination object: nothing is paged by offset and limit",
        );
      // A few limits a trial: pages past the first at small limits are where a cap slips.
      const limits = fc.uniqueArray(pageSize(whole.length, { max: SURE_LIMIT }), { minLength: 1, maxLength: 3 });
      await forAll(
        ctx,
        limits,
        async (sizes, api) => {
          for (const limit of sizes) {
            const walk = await walkOffset(api, path, limit, legacyEnvironments, { listLength: whole.length });
            expectPagesCapped(
              ctx.expect,
              walk.pages.map((res) => ({ items: legacyEnvironments(res.body) ?? [], res })),
              "limit",
              walk.limit,
              "environment",
            );
            expectWalkCovers(
              ctx.expect,
              walk.items.map((e: any) => String(e?.id)),
              whole,
              `environment (limit=${limit})`,
              walk.pages.at(-1),
            );
          }
        },
        { casesAtOnce: CASES_AT_ONCE },
      );
    },
  },
]);
