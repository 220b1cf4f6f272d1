import { group } from "../../core/check/check.js";
import { checkScope } from "../../core/transport/check-scope.js";
import { sleep } from "../../core/transport/http-timing.js";
import { NotExercised } from "../../core/model/outcome.js";
import { documented, ownBranch } from "../lib/e14.js";
import { expectListed, restoreLater } from "./examples.js";

/**
 * How long `staging.enable.stays-active` leaves an enabled branch alone before reading E2 again. The
 * States table says the environment stays active "regardless of user activity"; a run can wait only
 * so long, so this catches a server that lets an idle one lapse within seconds, not after hours.
 */
const STAGING_IDLE_MS = 4_000;

/**
 * The States table's "stays active regardless of user activity", over a few idle seconds, on a
 * branch of the run's own (its shares, shares.ts).
 */
export const stagingIdleChecks = group("staging", [
  {
    id: "staging.enable.stays-active",
    spec: "States and transitions (Branch: the staging environment stays active regardless of user activity); E2",
    level: "MUST",
    title: `An enabled staging environment is still listed by E2 after ${STAGING_IDLE_MS / 1000} s in which nothing touched its branch (a shared branch of the run's own)`,
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      // A branch of the run's own: the idle wait holds no branch another check toggles, so the staging
      // checks and the lists' readers need not wait it out (shares.ts).
      const name = await ownBranch(ctx, await documented(ctx), dep);
      restoreLater(ctx, dep, name, false);
      const res = await ctx.api.call("setStagingEnvironment", { deploymentId: dep }, { body: { enabled: true, branchName: name } });
      ctx.requireRoute(res, "E4", `enabling the staging environment of ${name}, a branch of the run's own`);
      // Only shared branches take one (E4): a server may make a branch its caller creates a personal one.
      if (res.status >= 400 && res.status < 500)
        throw new NotExercised(
          `enabling the staging environment of ${name}, a branch the run made, was refused (${res.status}): the server may make such a branch a personal one`,
        );
      ctx.expect.ok(res, "BranchResponse");
      // Listed right away first, so that a later absence is the idle time's doing, not the enable's.
      await expectListed(ctx, dep, name, true, [undefined]);
      // A stopped run (Ctrl-C) does not wait the idle time out.
      await sleep(STAGING_IDLE_MS, checkScope()?.refuse);
      await expectListed(ctx, dep, name, true);
    },
  },
]);
