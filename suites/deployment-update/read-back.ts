import { group } from "../../core/check/check.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { readSettings } from "../lib/deployment-settings.js";
import { SUCCESS, settled } from "../lib/success.js";
import { currentVersions, type VersionEntry } from "../lib/version-list.js";
import { DEPLOYMENT_CHANGES } from "./steps.js";

/** E6's updates read back in the settings: a field the update sends is what the next read shows, whichever field it is. */
export const deploymentUpdateReadBackChecks = group("deployment-update", [
  {
    id: "deployment-update.hold.read-back",
    spec: "E6 (releaseChannelVersionHold; partial merge); settings: E14",
    level: "MUST",
    title:
      "An update sending only releaseChannelVersionHold, flipped, is read back in the settings, and so is the update that flips it back: no read shows a value from before the last update",
    needs: DEPLOYMENT_CHANGES,
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      if (typeof (await readSettings(ctx, dep)).settings.releaseChannelVersionHold !== "boolean")
        throw new NotVerifiable("the settings (E14, shape not shown) show no boolean releaseChannelVersionHold");
      // Published docs: a version that is not its channel's latest holds the deployment, so a hold lifted there may move it: the
      // hold is flipped on its channel's latest, where the deployment is moved first if need be (the run puts the version back).
      const { list, current } = await currentVersions(ctx.api, ctx.expect, dep);
      const latest = list.find((v) => v.releaseChannel === current?.releaseChannel && v.isLatestInChannel === true);
      if (!current || !latest) throw new NotExercised("E5 marks no version current, or no latest of its channel: the hold is not flipped");
      if (current !== latest) {
        const moved = await ctx.api.call("updateDeployment", { deploymentId: dep }, { body: { releaseChannelVersion: latest.version } });
        ctx.expect.status(moved, SUCCESS.PUT, `setting up: releaseChannelVersion ${latest.version}, its channel's latest`);
        await settled(ctx.api, moved);
      }
      const hold = (await readSettings(ctx, dep)).settings.releaseChannelVersionHold;
      for (const value of [!hold, hold]) {
        const sent = `an update that sends only releaseChannelVersionHold ${value}`;
        const res = await ctx.api.call("updateDeployment", { deploymentId: dep }, { body: { releaseChannelVersionHold: value } });
        ctx.expect.status(res, SUCCESS.PUT, sent);
        await settled(ctx.api, res);
        const { settings, res: read } = await readSettings(ctx, dep);
        ctx.expect.equal(settings.releaseChannelVersionHold, value, `after ${sent}, the settings read releaseChannelVersionHold ${value}`, {
          res: read,
          reason: "read-back",
        });
      }
    },
  },
  {
    id: "deployment-update.versions.run-before-listed",
    spec: "E5 (the head of each channel plus older versions the account has run before); E6 rule 1",
    level: "MUST",
    title:
      "A version the deployment ran before and left for another stays in E5's list (and so can be chosen again): a version no channel marks latest, run, then left by naming a version and by naming a channel alone",
    needs: DEPLOYMENT_CHANGES,
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      // What the run changes it puts back from the settings read before: a server that does not serve them is not changed.
      await readSettings(ctx, dep);
      const move = async (v: VersionEntry, what: string) => {
        const res = await ctx.api.call("updateDeployment", { deploymentId: dep }, { body: { releaseChannelVersion: v.version } });
        ctx.expect.status(res, SUCCESS.PUT, `${what}: releaseChannelVersion ${v.version}`);
        await settled(ctx.api, res);
      };
      const { list, current } = await currentVersions(ctx.api, ctx.expect, dep);
      // Only a version no channel marks latest can drop out of the list (a head is listed anyway): run one, if need be.
      let ran = current && current.isLatestInChannel !== true ? current : undefined;
      if (!ran) {
        ran = list.find((v) => v.isCurrent !== true && v.isLatestInChannel !== true);
        if (!ran) throw new NotExercised("E5 lists no version that its channel does not mark latest: none could drop out of the list");
        await move(ran, "setting up, a version its channel does not mark latest");
      }
      const next = list.find((v) => v.version !== ran.version && v.isLatestInChannel === true) ?? list.find((v) => v.version !== ran.version);
      if (!next) throw new NotExercised("E5 lists no second version to leave for");
      // Left by naming a channel alone (E6 rule 2: to its latest), then (back on it) by naming the next version: a server
      // once recorded the version left on the second path only, and a version once recorded stays so; the channel goes first.
      const leaves: [string, Record<string, unknown>][] = [[`for ${next.version}`, { releaseChannelVersion: next.version }]];
      if (next.isLatestInChannel === true) leaves.unshift([`by releaseChannel ${next.releaseChannel} alone`, { releaseChannel: next.releaseChannel }]);
      for (const [i, [how, body]] of leaves.entries()) {
        if (i > 0) await move(ran, `going back to ${ran.version}`);
        const res = await ctx.api.call("updateDeployment", { deploymentId: dep }, { body });
        ctx.expect.status(res, SUCCESS.PUT, `leaving ${ran.version} ${how}`);
        await settled(ctx.api, res);
        const after = await currentVersions(ctx.api, ctx.expect, dep);
        ctx.expect.that(
          after.list.some((v) => v.version === ran.version),
          `after the deployment left ${ran.version} ${how}, E5 still lists ${ran.version}, a version it has run`,
          { expected: `${ran.version} listed`, got: after.list.map((v) => v.version), res: after.res, reason: "run-before-listed" },
        );
      }
    },
  },
]);
