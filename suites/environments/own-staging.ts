import { group } from "../../core/check/check.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotExercised } from "../../core/model/outcome.js";
import { documented, ownBranch } from "../lib/e14.js";
import { currentEnvironments } from "../lib/environment-list.js";
import { expectFilteredWalks } from "./examples.js";

/**
 * A branch of the run's own with its staging environment on (E4), turned off again at cleanup,
 * before the branch goes. False where the server refuses it (E4 takes shared branches only, and a
 * server may make a branch its caller creates a personal one).
 */
async function ownStaging(ctx: CheckContext, dep: string): Promise<boolean> {
  const name = await ownBranch(ctx, await documented(ctx), dep);
  const res = await ctx.api.call("setStagingEnvironment", { deploymentId: dep }, { body: { enabled: true, branchName: name } });
  if (res.status < 200 || res.status >= 300) return false;
  ctx.scratch.onCleanup(`the staging environment of branch ${name} off`, async () => {
    await ctx.api.call("setStagingEnvironment", { deploymentId: dep }, { body: { enabled: false, branchName: name } });
  });
  return true;
}

export const environmentOwnStagingChecks = group("environments", [
  {
    id: "environments.filter.every-page-own-staging",
    spec: "E2 (query type); Pagination styles 1 and 2; E4",
    level: "MUST",
    title:
      "With two staging environments of the run's own (two branches of its own, staging on), type=staging walked in small pages keeps to staging on every page and yields every staging environment",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      // A server may list few environments of each type: the run makes the two a walk needs to span two pages.
      const made = [await ownStaging(ctx, dep), await ownStaging(ctx, dep)].filter(Boolean).length;
      const all = (await currentEnvironments(ctx.api, ctx.expect, dep)).environments;
      const staging = all.filter((e) => e.type === "staging").map((e) => String(e.id));
      if (staging.length < 2)
        throw new NotExercised(
          `the run turned on ${made} staging environment(s) of its own, and E2 lists ${staging.length} of type staging: no two to span two pages`,
        );
      await expectFilteredWalks(ctx.api, ctx.expect, dep, all.length, [{ type: "staging", whole: staging }]);
    },
  },
]);
