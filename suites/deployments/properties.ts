import { groupedById } from "../../core/check/check.js";
import { DEPLOYMENTS_PATH, deploymentsOf } from "../../core/transport/deployments.js";
import { NotExercised } from "../../core/model/outcome.js";
import { walkOffset, wholeList } from "../../core/transport/pagination.js";
import { DEFAULT_REQUEST_BUDGET, forAll, CASES_AT_ONCE, MIN_RUNS } from "../../core/run/property.js";
import { pageSize, smallestPageSize } from "../../generators/index.js";
import { expectPagesCapped, expectWalkCovers } from "../lib/cursor-walk.js";
import { SURE_LIMIT } from "../lib/cursor-walk.js";

export const deploymentPropertyChecks = groupedById([
  {
    id: "deployments.list.any-limit",
    spec: "Pagination styles 1; E1",
    level: "MUST",
    title:
      "For any limit from 1 to n+2, every page of an offset walk of the deployments holds at most limit deployments, and the walk yields every deployment exactly once",
    kind: "property",
    async run(ctx) {
      const whole = wholeList(await walkOffset(ctx.api, DEPLOYMENTS_PATH, SURE_LIMIT, deploymentsOf), "deployments").items.map((d: any) => String(d?.id));
      if (!whole.length) throw new NotExercised("the deployments list (E1) is empty: there is nothing to walk");
      // No maximum limit is published, and a walk ends at a short page: limits stay at or below the default.
      const sizes = { max: SURE_LIMIT };
      // Each trial walks the whole list: a long one (a thousand deployments) costs tens of pages a
      // trial, and the budget affords the runs a property needs (MIN_RUNS, one case kept for the replay).
      const longestWalk = Math.ceil(whole.length / smallestPageSize(whole.length, sizes)) + 2;
      const maxRequests = Math.max(DEFAULT_REQUEST_BUDGET, (MIN_RUNS + 2) * longestWalk);
      await forAll(
        ctx,
        pageSize(whole.length, sizes),
        async (limit, api) => {
          const walk = await walkOffset(api, DEPLOYMENTS_PATH, limit, deploymentsOf, { listLength: whole.length });
          expectPagesCapped(
            ctx.expect,
            walk.pages.map((res) => ({ items: deploymentsOf(res.body) ?? [], res })),
            "limit",
            walk.limit,
            "deployment",
          );
          expectWalkCovers(
            ctx.expect,
            walk.items.map((d: any) => String(d?.id)),
            whole,
            "deployment",
            walk.pages.at(-1),
          );
        },
        { maxRequests, casesAtOnce: CASES_AT_ONCE },
      );
    },
  },
]);
