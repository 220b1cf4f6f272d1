import { group } from "../../core/check/check.js";
import { NotExercised } from "../../core/model/outcome.js";
import { acceptedSpellings } from "../../generators/index.js";
import { documented } from "../lib/e14.js";
import { ownDeployment } from "../lib/own-deployment.js";
import { currentVersions } from "../lib/version-list.js";
import { bare, DEPLOYMENT_CHANGES } from "./steps.js";

/**
 * E6 rule 1 reads "one of the versions listed by E5": by this deployment's E5, not by a catalogue of
 * every deployment's. A deployment the run made has run nothing before, so the versions the mutable
 * deployment lists beyond its own list are at hand; a real tenant's deployments often list the same.
 */
export const deploymentUpdateOwnVersionChecks = group("deployment-update", [
  {
    id: "deployment-update.version.listed-here-only",
    spec: "E6 rule 1 (one of the versions listed by E5); E5; Errors 2",
    level: "MUST",
    title:
      "A releaseChannelVersion that another deployment's E5 lists, and this deployment's does not, is rejected with 400 (on a deployment of the run's own) and leaves its version as it was",
    // Only the run's own deployment is changed, or refused a change: the mutable one is read.
    needs: [...DEPLOYMENT_CHANGES, "deployment-lifecycle"],
    async run(ctx) {
      const doc = await documented(ctx);
      const dep = await ownDeployment(ctx, doc.operations, ctx.fixture("mutableDeployment").id, "whose E5 list another deployment's may exceed");
      const own = await currentVersions(ctx.api, ctx.expect, dep);
      const listedHere = new Set(own.list.flatMap((v) => acceptedSpellings(v)));
      const elsewhere = (await currentVersions(ctx.api, ctx.expect, ctx.fixture("mutableDeployment").id)).list
        .map((v) => v.version)
        .filter((v) => !listedHere.has(v) && !listedHere.has(bare(v)));
      if (!elsewhere.length) throw new NotExercised(`E5 lists for deployment ${dep}, made by the run, every version the mutable deployment lists`);
      for (const version of elsewhere) {
        const res = await ctx.api.call("updateDeployment", { deploymentId: dep }, { body: { releaseChannelVersion: version } });
        ctx.expect.status(res, 400, `releaseChannelVersion ${version}, which E5 lists for another deployment and not for ${dep}`);
      }
      const after = await currentVersions(ctx.api, ctx.expect, dep);
      ctx.expect.equal(after.current?.version, own.current?.version, `the version E5 marks current on ${dep} after the rejected updates`, {
        res: after.res,
        reason: "current-version",
      });
    },
  },
]);
