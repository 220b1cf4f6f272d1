import fc from "fast-check";
import { groupedById } from "../../core/check/check.js";
import { NotExercised } from "../../core/model/outcome.js";
import { CASES_AT_ONCE, forAll } from "../../core/run/property.js";
import { nearMissesOf, nearMissVersionForm, rejectedVersionForm } from "../../generators/index.js";
import { readSettings } from "../lib/deployment-settings.js";
import { currentVersions } from "../lib/version-list.js";

export const deploymentUpdatePropertyChecks = groupedById([
  {
    id: "deployment-update.version.near-miss-forms",
    spec: "E6 rule 1; Errors 2",
    level: "MUST",
    title:
      "Any releaseChannelVersion other than 1.7.20, v1.7.20 or the image-style reference of a listed version (a near miss of one: V1.7.20, v 1.7.20, 1.7, 1.7.20.0, cubejs/cube:1.7.20, another image; or an unlisted version) gets 400 and changes nothing",
    kind: "property",
    // The accepted spellings are deployment-update.version.listed-forms' (one update each): on a server that keeps the rule, no trial here changes the deployment.
    needs: ["writes", "deployment-changes", "fixture:mutableDeployment"],
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      const { list, current } = await currentVersions(ctx.api, ctx.expect, dep);
      if (!current) throw new NotExercised("E5 marks no version current: the version the property moves away from could not be put back");
      await readSettings(ctx, dep);
      const inputs = fc.oneof({ arbitrary: nearMissVersionForm(list), weight: 3 }, { arbitrary: rejectedVersionForm(list), weight: 1 });
      // What the last trial read after itself is what the next starts from (nothing else changes this
      // deployment meanwhile: write:deployment): a trial that wrongly moved it does not fail the ones after it.
      // Trials run at once while each is refused; from one that was taken, one at a time (sharedObject).
      let before: typeof current | undefined = current;
      await forAll(
        ctx,
        inputs,
        async (input, api) => {
          const from = before;
          const res = await api.call("updateDeployment", { deploymentId: dep }, { body: { releaseChannelVersion: input } });
          const after = await currentVersions(api, ctx.expect, dep);
          before = after.current;
          ctx.expect.status(res, 400, `releaseChannelVersion ${JSON.stringify(input)} is none of the three forms of a listed version`);
          ctx.expect.that(after.current?.version === from?.version, "E5 marks the same version current as before", {
            expected: `isCurrent on ${from?.version}`,
            got: after.current ? `isCurrent on ${after.current.version}` : "no entry with isCurrent true",
            res: after.res,
            reason: "current-version",
          });
        },
        // Each near miss of the current version on every run, whatever the seed draws: drawn among all the listed
        // versions' near misses, the one form a server took came on some seeds only (Rust: cubejs/cube:1.6.12).
        { casesAtOnce: CASES_AT_ONCE, sharedObject: true, examples: nearMissesOf([current], list) },
      );
    },
  },
]);
