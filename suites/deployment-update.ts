import { group, type Need } from "../core/check.js";
import type { CheckContext } from "../core/context.js";
import { NotExercised, NotVerifiable } from "../core/outcome.js";
import { deploymentPath, isObject, keepSettings, pick, readSettings, UPDATE_ACCEPTED } from "./lib/deployment-settings.js";
import { acceptedSpellings } from "../generators/index.js";
import { currentVersions, type VersionEntry } from "./lib/version-list.js";

/** E6 fields that choosing a version leaves alone (the release fields, the hold and the image follow it). */
const BESIDE_THE_VERSION = ["cloudProvider", "region", "template", "templateVariables", "defaultLaunchpadViewGroup", "launchpadTabs"];

/** Every check here changes the deployment the user named for it, and only with the opt-in. */
const DEPLOYMENT_CHANGES: Need[] = ["writes", "deployment-changes", "fixture:mutableDeployment"];

const bare = (version: string) => String(version).replace(/^v/, "");

async function update(ctx: CheckContext, dep: string, body: Record<string, unknown>, what: string): Promise<void> {
  ctx.expect.status(await ctx.api.put(deploymentPath(dep), body), UPDATE_ACCEPTED, what);
}

/** A listed version other than the current one, in the current one's channel when there is one. */
function anotherVersion(list: VersionEntry[], current: VersionEntry | undefined): VersionEntry {
  const others = list.filter((v) => v.isCurrent !== true);
  const other = others.find((v) => v.releaseChannel === current?.releaseChannel) ?? others[0];
  if (!other) throw new NotExercised("E5 lists no version besides the current one: there is nothing to switch to");
  return other;
}

/** E6 rule 1: the three ways to name a listed version. */
const namings = (v: VersionEntry) => [...new Set(acceptedSpellings(v))];

async function expectCurrent(ctx: CheckContext, dep: string, expected: VersionEntry, what: string): Promise<void> {
  const { current, res } = await currentVersions(ctx.api, ctx.expect, dep);
  ctx.expect.that(current !== undefined && bare(current.version) === bare(expected.version), what, { reason: "current-version", expected: `isCurrent on ${expected.version}`, got: current ? `isCurrent on ${current.version}` : "no entry with isCurrent true", res });
}

export const deploymentUpdateChecks = group("deployment-update", [
  {
    id: "deployment-update.version.listed-forms",
    spec: "E6 rule 1",
    level: "MUST",
    title: "A listed version is accepted as `1.7.20`, `v1.7.20` and its image-style reference, and E5 then marks it current",
    needs: DEPLOYMENT_CHANGES,
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      await keepSettings(ctx, dep);
      const { list, current } = await currentVersions(ctx.api, ctx.expect, dep);
      const target = anotherVersion(list, current);
      // One update per naming, alternating between the target and another listed version, so that each naming has to move the deployment.
      const away = current ?? list.find((v) => v !== target);
      if (!away) throw new NotExercised("E5 lists a single version: there is nothing to move between");
      for (const form of [0, 1, 2]) {
        const to = form === 1 ? away : target;
        const sent = acceptedSpellings(to)[form];
        await update(ctx, dep, { releaseChannelVersion: sent }, `releaseChannelVersion ${JSON.stringify(sent)}, a listed version`);
        await expectCurrent(ctx, dep, to, `after releaseChannelVersion ${JSON.stringify(sent)}, E5 marks ${to.version} current`);
      }
    },
  },
  {
    id: "deployment-update.version.unlisted-rejected",
    spec: "E6 rule 1; Errors 2",
    level: "MUST",
    title: "A releaseChannelVersion that E5 does not list is rejected with 400 and the current version stays",
    needs: DEPLOYMENT_CHANGES,
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      await keepSettings(ctx, dep);
      const { list, current } = await currentVersions(ctx.api, ctx.expect, dep);
      const listed = new Set(list.flatMap(namings));
      // A listed version cut short (`v1.7`) names none of them either.
      const truncated = list.slice(0, 1).map((v) => `v${bare(v.version).split(".").slice(0, 2).join(".")}`);
      const unlisted = ["999.999.999", "latest", "", ...truncated].filter((v) => !listed.has(v));
      for (const value of unlisted) {
        const res = await ctx.api.put(deploymentPath(dep), { releaseChannelVersion: value });
        ctx.expect.status(res, 400, `releaseChannelVersion ${JSON.stringify(value)}, which E5 does not list`);
      }
      const after = await currentVersions(ctx.api, ctx.expect, dep);
      ctx.expect.equal(after.current?.version, current?.version, "the version E5 marks current is the one before the rejected updates", after.res);
    },
  },
  {
    id: "deployment-update.channel.moves-to-latest",
    spec: "E6 rule 2",
    level: "MUST",
    title: "releaseChannel sent alone moves the deployment to that channel's latest version",
    needs: DEPLOYMENT_CHANGES,
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      await keepSettings(ctx, dep);
      const { list, current } = await currentVersions(ctx.api, ctx.expect, dep);
      const channel = [...new Set(list.map((v) => v.releaseChannel))].find((c) => c !== current?.releaseChannel);
      if (channel === undefined) throw new NotExercised("E5 lists a single release channel: there is no other channel to move to");
      const latest = list.find((v) => v.releaseChannel === channel && v.isLatestInChannel === true);
      if (!latest) throw new NotExercised(`E5 marks no version of channel ${channel} as its latest`);
      await update(ctx, dep, { releaseChannel: channel }, `releaseChannel ${JSON.stringify(channel)} alone`);
      await expectCurrent(ctx, dep, latest, `after releaseChannel ${JSON.stringify(channel)} alone, E5 marks that channel's latest (${latest.version}) current`);
    },
  },
  {
    id: "deployment-update.merge.omitted-fields-kept",
    spec: "E6 (partial merge); settings: E14, shape not shown",
    level: "SHOULD",
    title: "An update leaves the fields it does not send as they were",
    needs: DEPLOYMENT_CHANGES,
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      const before = await keepSettings(ctx, dep);
      const { list, current } = await currentVersions(ctx.api, ctx.expect, dep);
      const target = anotherVersion(list, current);
      await update(ctx, dep, { releaseChannelVersion: bare(target.version) }, `an update that sends only releaseChannelVersion ${target.version}`);
      const { settings: after, res } = await readSettings(ctx, dep);
      const compared = BESIDE_THE_VERSION.filter((f) => f in before && f in after);
      if (!compared.length) throw new NotVerifiable(`the settings (E14, shape not shown) show none of ${BESIDE_THE_VERSION.join(", ")}: nothing to compare`);
      ctx.expect.equal(pick(after, compared), pick(before, compared), "the fields the update did not send keep their values", { res, reason: "omitted-kept" });
    },
  },
  {
    id: "deployment-update.merge.template-variables",
    spec: "E6 (templateVariables merged key by key); settings: E14, shape not shown",
    level: "SHOULD",
    title: "templateVariables are merged key by key: an update sending one new key keeps every other key and adds it",
    // No update removes a template variable (the merge keeps keys), so the one added here stays.
    needs: [...DEPLOYMENT_CHANGES, "unremovable-writes"],
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      const before = (await keepSettings(ctx, dep)).templateVariables;
      if (!isObject(before) || !Object.keys(before).length) throw new NotVerifiable("the settings (E14, shape not shown) show no template variables that an update could keep or lose");
      const key = ctx.scratch.name("merge").toUpperCase().replace(/[^A-Z0-9]+/g, "_");
      const value = ctx.scratch.name("value");
      const res = await ctx.api.put(deploymentPath(dep), { templateVariables: { [key]: value } });
      if (res.status === 400 || res.status === 422) throw new NotExercised(`the server refused a template variable its template does not define (${res.status}): the merge cannot be seen without changing a real one`);
      ctx.expect.status(res, UPDATE_ACCEPTED, "an update that sends one new template variable");
      const { settings: after, res: read } = await readSettings(ctx, dep);
      ctx.expect.equal(after.templateVariables, { ...before, [key]: value }, "templateVariables hold every earlier key unchanged, plus the one sent", { res: read, reason: "merged-by-key" });
    },
  },
  {
    id: "deployment-update.image.not-settable",
    spec: "E6 rule 3",
    level: "SHOULD",
    title: "The container image cannot be set directly: a body with `image` is rejected (4xx) or the image is not taken",
    needs: DEPLOYMENT_CHANGES,
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      await keepSettings(ctx, dep);
      const image = `attacker/${ctx.scratch.slug("image")}:1`;
      const res = await ctx.api.put(deploymentPath(dep), { image });
      ctx.requireRoute(res, "E6", "an update with image");
      if (res.status >= 400 && res.status < 500) return; // rejected: the rule holds
      ctx.expect.status(res, UPDATE_ACCEPTED, "an update with image is either rejected with a 4xx or accepted");
      const { settings, res: read } = await readSettings(ctx, dep);
      ctx.expect.that(!JSON.stringify(settings).includes(image), "the image sent does not appear in the settings", { reason: "image-ignored", expected: "the image resolved from the version", got: settings.image, res: read });
    },
  },
]);
