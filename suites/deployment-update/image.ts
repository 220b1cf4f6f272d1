import { group } from "../../core/check/check.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import { offSchema } from "../../core/transport/client.js";
import { readSettings } from "../lib/deployment-settings.js";
import { settled, SUCCESS } from "../lib/success.js";
import { currentVersions, namesVersion } from "../lib/version-list.js";
import { anotherVersion, bare, DEPLOYMENT_CHANGES, update } from "./steps.js";

/** The tag of an image-style reference (`cubejs/cube:v1.7.20`), where it has one: a digest (`@sha256:…`) has none. */
const tagOf = (image: string): string | undefined => (image.includes("@") ? undefined : /:([^:/]+)$/.exec(image)?.[1]);

/** E6 rule 3: the container image is resolved server-side from the version, and cannot be set directly. */
export const deploymentUpdateImageChecks = group("deployment-update", [
  {
    id: "deployment-update.image.not-settable",
    spec: "E6 rule 3",
    level: "SHOULD",
    title:
      "The container image cannot be set directly: a body with `image`, alone or beside a listed releaseChannelVersion (the current one), is rejected (4xx) or the image is not taken",
    needs: DEPLOYMENT_CHANGES,
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      await readSettings(ctx, dep);
      const { current } = await currentVersions(ctx.api, ctx.expect, dep);
      const image = `attacker/${ctx.scratch.slug("image")}:1`;
      // Beside a version the deployment is on already: a server may check image only on a body that sends nothing else.
      const bodies = [{ image }, ...(current ? [{ image, releaseChannelVersion: bare(current.version) }] : [])];
      for (const body of bodies) {
        const sent = `an update with ${Object.keys(body).join(" and ")}`;
        const res = await ctx.api.call("updateDeployment", { deploymentId: dep }, { body: offSchema(body) });
        ctx.requireRoute(res, "E6", sent);
        if (res.status >= 400 && res.status < 500) continue; // rejected: the rule holds
        ctx.expect.status(res, SUCCESS.PUT, `${sent} is either rejected with a 4xx or accepted`);
        await settled(ctx.api, res);
        const { settings, res: read } = await readSettings(ctx, dep);
        ctx.expect.that(!JSON.stringify(settings).includes(image), `the image sent in ${sent} does not appear in the settings`, {
          reason: "image-ignored",
          expected: "the image resolved from the version",
          got: settings.image,
          res: read,
        });
      }
    },
  },
  {
    id: "deployment-update.image.follows-version",
    spec: "E6 rule 3",
    // SHOULD: the settings' shape is not shown (E14), and the image-style form is the facts' (`cubejs/cube:v1.7.20`).
    level: "SHOULD",
    title:
      "Where the settings show the container image, it is resolved from the version: after a switch to another listed version it is another image, and its tag, where it has one, names that version",
    needs: DEPLOYMENT_CHANGES,
    reasons: {
      "image-follows": { title: "The image the settings show follows the version set", expected: "an image resolved from the version set" },
    },
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      const { settings: before } = await readSettings(ctx, dep);
      if (typeof before.image !== "string") throw new NotVerifiable("the deployment settings show no image (a string) to follow the version");
      const { list, current } = await currentVersions(ctx.api, ctx.expect, dep);
      if (!current) throw new NotExercised("E5 marks no version current: a switch may land on the version the image already names");
      const target = anotherVersion(list, current);
      await update(ctx, dep, { releaseChannelVersion: bare(target.version) }, `releaseChannelVersion ${bare(target.version)}, a listed version`);
      const { settings: after, res } = await readSettings(ctx, dep);
      const tag = typeof after.image === "string" ? tagOf(after.image) : undefined;
      // A tag that holds no digit is a channel's name (`latest`), not a version: only the change is judged then. A tag may
      // carry the version with a prefix or a build suffix (`v1.6.12-r1`): it names the version where that stands in it whole.
      const named = tag === undefined || !/\d/.test(tag) || namesVersion(tag, bare(target.version));
      ctx.expect.that(
        typeof after.image === "string" && after.image !== before.image && named,
        `after a switch from ${current.version} to ${target.version}, the image the settings show is resolved from ${target.version}`,
        {
          expected: `another image than ${before.image}${tag === undefined ? "" : `, tagged ${target.version}`}`,
          got: after.image,
          res,
          reason: "image-follows",
        },
      );
    },
  },
]);
