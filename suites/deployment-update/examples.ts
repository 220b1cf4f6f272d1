import { classOf } from "../../core/api/input-domain.js";
import { LOOSELY_EQUAL_STRINGS } from "../../core/api/number-spellings.js";
import { operation } from "../../core/api/operations.js";
import { group } from "../../core/check/check.js";
import type { Api } from "../../core/transport/api.js";
import { allDeployments } from "../../core/transport/deployments.js";
import type { CheckContext } from "../../core/check/context.js";
import { NotExercised, NotVerifiable } from "../../core/model/outcome.js";
import type { ReasonKey } from "../../core/model/reasons.js";
import { readSettings } from "../lib/deployment-settings.js";
import { settled, SUCCESS } from "../lib/success.js";
import { isObject } from "../lib/values.js";
import { acceptedSpellings } from "../../generators/index.js";
import { currentVersions, type VersionEntry } from "../lib/version-list.js";
import { anotherVersion, bare, DEPLOYMENT_CHANGES, update } from "./steps.js";

/** E6's named body fields (the table's), as a run may read them back in the settings, and the creation method and deploy mode under their usual names. */
const NAMED_FIELDS = [...(operation("updateDeployment").fields ?? []), "creationMethod", "deployMode"];
/** What choosing a version moves with it: sending one of them may change them all. */
const RELEASE_FIELDS = ["releaseChannel", "releaseChannelVersion", "releaseChannelVersionHold"];
/** Fields an update may send as they stand, to omit everything else (a value of their own: no type is shown for them); the placement fields last. */
const ASIS_CANDIDATES = ["templateVariables", "launchpadTabs", "defaultLaunchpadViewGroup", "template", "region", "cloudProvider"];
/**
 * A display default a run may give a value of its own where it reads null, so that an update
 * omitting it has a value to lose: only where the server first takes null for it (sent as it
 * stands), which is what the cleanup sends to put it back.
 */
const FILLABLE_WHEN_NULL = ["defaultLaunchpadViewGroup"];

/**
 * E6 (omitted fields are left alone): after an update that sent only `sent`, every other named
 * field the settings show reads as in `before` (the release fields move together with a version).
 */
async function expectOmittedKept(ctx: CheckContext, dep: string, before: Record<string, any>, sent: string): Promise<string[]> {
  const { settings: after, res } = await readSettings(ctx, dep);
  const moved = RELEASE_FIELDS.includes(sent) ? RELEASE_FIELDS : [sent];
  const compared = NAMED_FIELDS.filter((f) => !moved.includes(f) && f in before && f in after);
  for (const f of compared)
    ctx.expect.equal(after[f], before[f], `${f}, which an update sending only ${sent} omits, keeps its value`, { res, reason: `kept:${f}` });
  return compared;
}

/** Each fillable field that reads null gets a value of the run's own, where the server takes null back first; the settings as they then read. */
async function fillNulls(ctx: CheckContext, dep: string, settings: Record<string, any>): Promise<Record<string, any>> {
  const empty = FILLABLE_WHEN_NULL.filter((f) => f in settings && settings[f] === null);
  for (const f of empty) {
    const asItStands = await ctx.api.call("updateDeployment", { deploymentId: dep }, { body: { [f]: null } });
    if (asItStands.status < 200 || asItStands.status >= 300) continue;
    await settled(ctx.api, asItStands);
    const filled = await ctx.api.call("updateDeployment", { deploymentId: dep }, { body: { [f]: ctx.scratch.name("view-group") } });
    // Its type and values are not shown (E14 gaps): a value the server refuses leaves the field null, and the merge is seen on the others.
    if (filled.status >= 200 && filled.status < 300) await settled(ctx.api, filled);
  }
  return empty.length ? (await readSettings(ctx, dep)).settings : settings;
}

/** The fields changedBeside gives a value the spec or E5 makes valid: beside them, only the version is wrong. */
const VALID_BESIDE = ["releaseChannelVersionHold", "templateVariables", "releaseChannel"];

/**
 * Every other E6 field the settings show, with a value unlike the one stored, to send beside a
 * version E5 does not list (a refused update applies none of them, whichever the server reads
 * first): the hold flipped, one existing template variable given `value` (an existing key, so that
 * what a server applied is put back at cleanup; a new key could not be removed), another channel
 * E5 lists, no launchpad tabs where there are some, and `value` for each field of a type not shown
 * that reads as a string or null. The cleanup puts back any E6 field a body carried.
 */
function changedBeside(settings: Record<string, any>, value: string, channels: string[]): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  const key = isObject(settings.templateVariables) ? Object.keys(settings.templateVariables)[0] : undefined;
  if (typeof settings.releaseChannelVersionHold === "boolean") changed.releaseChannelVersionHold = !settings.releaseChannelVersionHold;
  if (key !== undefined) changed.templateVariables = { [key]: value };
  const channel = channels.find((c) => c !== settings.releaseChannel);
  if (typeof settings.releaseChannel === "string" && channel !== undefined) changed.releaseChannel = channel;
  if (Array.isArray(settings.launchpadTabs) && settings.launchpadTabs.length) changed.launchpadTabs = [];
  for (const f of ["cloudProvider", "region", "template", "defaultLaunchpadViewGroup"])
    if (f in settings && (typeof settings[f] === "string" || settings[f] === null)) changed[f] = value;
  return changed;
}

/** E6 rule 1: the three ways to name a listed version. */
const namings = (v: VersionEntry) => [...new Set(acceptedSpellings(v))];

async function expectCurrent(ctx: CheckContext, dep: string, expected: VersionEntry, what: string, reason: ReasonKey = "current-version"): Promise<void> {
  const { current, res } = await currentVersions(ctx.api, ctx.expect, dep);
  ctx.expect.that(current !== undefined && bare(current.version) === bare(expected.version), what, {
    expected: `isCurrent on ${expected.version}`,
    got: current ? `isCurrent on ${current.version}` : "no entry with isCurrent true",
    res,
    reason,
  });
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
      await readSettings(ctx, dep);
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
    title:
      "A releaseChannelVersion that E5 does not list (one another deployment's E5 lists among them) is rejected with 400, sent alone or beside other fields, and the rejected update changes nothing: the current version stays, and so does every other field it sent",
    needs: DEPLOYMENT_CHANGES,
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      const { settings: before } = await readSettings(ctx, dep);
      const { list, current } = await currentVersions(ctx.api, ctx.expect, dep);
      const listed = new Set(list.flatMap(namings));
      // A listed version cut short (`v1.7`) names none of them either.
      const truncated = list.slice(0, 1).map((v) => `v${bare(v.version).split(".").slice(0, 2).join(".")}`);
      // A version another deployment's E5 lists: a server once checked against a catalogue of all of them.
      const elsewhere = await listedElsewhere(ctx.api, dep, listed);
      const unlisted = ["999.999.999", "latest", "", ...truncated, ...elsewhere].filter((v) => !listed.has(v));
      const beside = changedBeside(before, ctx.scratch.name("value"), [...new Set(list.map((v) => v.releaseChannel))]);
      const fields = Object.keys(beside);
      // Beside the version: all the other fields after it and before it (a server may apply what it
      // reads before the version, in the body's order or its own), and each alone before it.
      // The bodies with other fields go first: what a refusal leaves behind is read before any status is judged.
      const bodies = (value: string, first: boolean) => [
        ...(fields.length
          ? [
              { releaseChannelVersion: value, ...beside },
              { ...beside, releaseChannelVersion: value },
            ]
          : []),
        ...(first ? fields.map((f) => ({ [f]: beside[f], releaseChannelVersion: value })) : []),
        { releaseChannelVersion: value },
      ];
      for (const [i, value] of unlisted.entries())
        for (const body of bodies(value, i === 0)) {
          const others = Object.keys(body).filter((k) => k !== "releaseChannelVersion");
          const sent = `releaseChannelVersion ${JSON.stringify(value)}, which E5 does not list${others.length ? `, beside ${others.join(", ")}` : ""}`;
          const res = await ctx.api.call("updateDeployment", { deploymentId: dep }, { body });
          // A refused request is not applied in part: the fields sent beside the version read as before, after each
          // refusal (rule 2), read before its status is judged: a refusal with another status than 400 still shows it.
          if (res.status >= 400 && res.status < 500 && others.length) {
            const { settings: now, res: read } = await readSettings(ctx, dep);
            for (const field of others)
              ctx.expect.equal(now[field], before[field], `${field}, sent beside ${sent.split(",")[0]}, keeps its value after the refusal`, {
                res: read,
                reason: "settings-unchanged",
              });
          }
          // 400 where the version is all that is wrong; a value of ours for a field of a type not shown may be refused in its own right.
          if (others.every((f) => VALID_BESIDE.includes(f))) ctx.expect.status(res, 400, sent);
          else ctx.expect.clientError(res, `${sent}, is refused`);
        }
      const after = await currentVersions(ctx.api, ctx.expect, dep);
      ctx.expect.equal(after.current?.version, current?.version, "the version E5 marks current is the one before the rejected updates", {
        res: after.res,
        reason: "current-version",
      });
      const { settings: now, res } = await readSettings(ctx, dep);
      for (const field of fields)
        ctx.expect.equal(now[field], before[field], `${field}, sent beside an unlisted version, keeps its value`, { res, reason: "settings-unchanged" });
    },
  },
  {
    id: "deployment-update.channel.moves-to-latest",
    spec: "E6 rule 2",
    level: "MUST",
    title: "releaseChannel sent alone moves the deployment to that channel's latest version: another channel's, and its own from a version below the latest",
    needs: DEPLOYMENT_CHANGES,
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      await readSettings(ctx, dep);
      const { list, current } = await currentVersions(ctx.api, ctx.expect, dep);
      const latestOf = (channel: string) => list.find((v) => v.releaseChannel === channel && v.isLatestInChannel === true);
      const moveAlone = async (channel: string, from: string) => {
        const latest = latestOf(channel);
        if (!latest) return false;
        await update(ctx, dep, { releaseChannel: channel }, `releaseChannel ${JSON.stringify(channel)} alone, ${from}`);
        await expectCurrent(
          ctx,
          dep,
          latest,
          `after releaseChannel ${JSON.stringify(channel)} alone, ${from}, E5 marks that channel's latest (${latest.version}) current`,
        );
        return true;
      };
      const other = [...new Set(list.map((v) => v.releaseChannel))].find((c) => c !== current?.releaseChannel);
      const movedAcross = other !== undefined && (await moveAlone(other, "from another channel"));
      // The rule holds for the deployment's own channel too: from a version below its latest, not a no-op.
      const below = list.find((v) => v.isLatestInChannel !== true && latestOf(v.releaseChannel) !== undefined);
      let movedWithin = false;
      if (below) {
        await update(
          ctx,
          dep,
          { releaseChannelVersion: bare(below.version) },
          `setting up: releaseChannelVersion ${below.version}, below its channel's latest`,
        );
        movedWithin = await moveAlone(below.releaseChannel, `the deployment's own channel, from ${below.version}`);
      }
      if (!movedAcross && !movedWithin)
        throw new NotExercised("E5 lists no channel the deployment is not on and no version below its channel's latest, or marks no channel's latest");
    },
  },
  {
    id: "deployment-update.merge.omitted-fields-kept",
    spec: "E6 (partial merge: omitted fields are left alone); settings: E14, shape not shown",
    level: "MUST",
    title:
      "An update leaves every named field it does not send as it was: one sending only a version keeps the others, and one sending only any other field (each in turn, with a null display default given a value first) keeps the version and the rest",
    needs: DEPLOYMENT_CHANGES,
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      // The display defaults filled first: filling them after the version is pinned would be an update no judgment follows
      // (a server once unpinned a deployment at any update that sent no version, channel or hold).
      const before = await fillNulls(ctx, dep, (await readSettings(ctx, dep)).settings);
      const { list, current } = await currentVersions(ctx.api, ctx.expect, dep);
      // A version its channel does not mark latest, where there is one: an update that omits the version and wrongly moves to the latest shows then.
      const target = anotherVersion(list, current, true);
      await update(ctx, dep, { releaseChannelVersion: bare(target.version) }, `an update that sends only releaseChannelVersion ${target.version}`);
      const first = await expectOmittedKept(ctx, dep, before, "releaseChannelVersion");
      const filled = (await readSettings(ctx, dep)).settings;
      const fields = ASIS_CANDIDATES.filter((f) => filled[f] !== undefined && filled[f] !== null);
      if (!fields.length) {
        if (!first.length) throw new NotVerifiable(`the settings (E14, shape not shown) show none of ${NAMED_FIELDS.join(", ")}: nothing to compare`);
        return;
      }
      // Each field alone, as it stands: an update sending one of them may lose any other (one sent with another, say).
      for (const [i, field] of fields.entries()) {
        const { settings: before } = await readSettings(ctx, dep);
        const sent = `an update that sends only ${field}, as it stands`;
        const res = await ctx.api.call("updateDeployment", { deploymentId: dep }, { body: { [field]: before[field] } });
        // The first is taken or the check fails; a later one (a placement field a server may hold fixed) may be refused, and then changes nothing.
        if (i > 0 && res.status >= 400 && res.status < 500) {
          const { settings: after, res: read } = await readSettings(ctx, dep);
          for (const f of NAMED_FIELDS.filter((f) => f in before && f in after))
            ctx.expect.equal(after[f], before[f], `${f} after ${sent}, refused with ${res.status}`, { res: read, reason: "settings-unchanged" });
          continue;
        }
        ctx.expect.status(res, SUCCESS.PUT, sent);
        await settled(ctx.api, res);
        await expectCurrent(ctx, dep, target, `after ${sent}, E5 still marks ${target.version} current`, "kept:version");
        await expectOmittedKept(ctx, dep, before, field);
      }
    },
  },
  {
    id: "deployment-update.merge.template-variables",
    spec: "E6 (templateVariables merged key by key); settings: E14, shape not shown",
    level: "MUST",
    title:
      'templateVariables are merged key by key: an update sending a new value for one existing key (plain, empty, padded, non-ASCII, long, "1e1" after "10", "01" after "1") stores it as sent and keeps every other key as it was',
    // An existing key, not a new one: no update removes a template variable, and cleanup puts the old value back.
    needs: DEPLOYMENT_CHANGES,
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      const before = (await readSettings(ctx, dep)).settings.templateVariables;
      if (!isObject(before)) throw new NotVerifiable("the settings (E14, shape not shown) show no template variables that an update could keep or lose");
      const [key, ...others] = Object.keys(before);
      if (key === undefined)
        throw new NotExercised(
          "the deployment has no template variable: a merge shows only beside a key that is not sent (a new key could not be removed afterwards)",
        );
      // Each class of a template variable's value (core/api/input-domain.ts): a plain value, "", padded, non-ASCII, longer than 255 characters.
      const values = [
        ctx.scratch.name("value"),
        ...["empty", "whitespace-padded", "non-ascii", "long"].map((c) => classOf("updateDeployment", "/templateVariables/*", c).edges[0] as string),
        // Then a number's other spellings, each after the one a loose comparison calls equal (PHP: "10" == "1e1", "1" == "01"):
        // a server that writes only what "changed" keeps the first (upsert.meta.merge-replaces-sent-keys, the same class).
        ...LOOSELY_EQUAL_STRINGS.flat(),
      ];
      for (const [i, value] of values.entries()) {
        const sent = `an update that sends only the template variable ${key} = ${JSON.stringify(value)}`;
        const res = await ctx.api.call("updateDeployment", { deploymentId: dep }, { body: { templateVariables: { [key]: value } } });
        // Field types are not shown (E14 gaps): a value of another class may be refused, the plain one must be taken for a verdict.
        if ((res.status === 400 || res.status === 422) && i > 0) continue;
        if (res.status === 400 || res.status === 422) throw new NotExercised(`the server refused ${sent} (${res.status}): the merge cannot be seen`);
        ctx.expect.status(res, SUCCESS.PUT, sent);
        const { settings: after, res: read } = await readSettings(ctx, dep);
        ctx.expect.equal(
          after.templateVariables,
          { ...before, [key]: value },
          `after ${sent}, templateVariables hold every other key unchanged, and ${key} with the value sent`,
          {
            res: read,
            reason: "merged-key-by-key",
          },
        );
      }
      // With one key, each value was read back as sent (the settings show the update), but no other key was there to keep.
      if (!others.length)
        throw new NotExercised(
          `the deployment has one template variable: each value sent was read back as sent, but a merge shows only beside a key that is not sent (a new key could not be removed afterwards)`,
        );
    },
  },
  {
    id: "deployment-update.channel.unlisted-refused",
    spec: "E6 rule 2; E5",
    level: "SHOULD",
    title:
      "A releaseChannel that no version E5 lists is in (empty, padded, non-ASCII, long) is refused with a 4xx, rule 2 having no latest version to move to, and the release fields stay as they were",
    needs: DEPLOYMENT_CHANGES,
    async run(ctx) {
      const dep = ctx.fixture("mutableDeployment").id;
      const { settings: before } = await readSettings(ctx, dep);
      const { list } = await currentVersions(ctx.api, ctx.expect, dep);
      const folded = (c: string) => c.trim().toLowerCase();
      // The text classes of core/api/input-domain.ts, each a channel no listed version is in even trimmed and case-folded.
      const channels = [
        "",
        `  ${ctx.scratch.name("channel")}  `,
        `${ctx.scratch.name("kanal")}-äé✓`,
        `${ctx.scratch.name("channel")}-${"x".repeat(256)}`,
      ].filter((c) => !list.some((v) => folded(v.releaseChannel) === folded(c)));
      const release = (settings: Record<string, unknown>) => Object.fromEntries(RELEASE_FIELDS.filter((f) => f in before).map((f) => [f, settings[f]]));
      for (const channel of channels) {
        const sent = `an update with releaseChannel ${JSON.stringify(channel.slice(0, 40))}${channel.length > 40 ? "…" : ""}`;
        const res = await ctx.api.call("updateDeployment", { deploymentId: dep }, { body: { releaseChannel: channel } });
        ctx.requireRoute(res, "E6", sent);
        ctx.expect.clientError(res, `${sent}, which no listed version is in, is refused`);
        const { settings: after, res: read } = await readSettings(ctx, dep);
        ctx.expect.equal(release(after), release(before), `the release fields after ${sent}, refused`, { res: read, reason: "settings-unchanged" });
      }
    },
  },
]);

/** Other deployments whose E5 lists are read for versions this one's does not list: a few suffice to meet a shared catalogue. */
const OTHER_DEPLOYMENTS = 5;

/** A version E5 lists for another deployment and not for this one (none where every list is the same), read leniently: those lists are not this check's to judge. */
async function listedElsewhere(api: Api, dep: string, listed: Set<string>): Promise<string[]> {
  const others = (await allDeployments(api)).map((d) => String(d?.id)).filter((id) => id !== dep);
  for (const other of others.slice(0, OTHER_DEPLOYMENTS)) {
    const res = await api.call("listVersions", { deploymentId: other });
    const body: any = res.status === 200 && res.isJson ? res.body : undefined;
    const list: unknown[] = Array.isArray(body?.data) ? body.data : Array.isArray(body?.items) ? body.items : [];
    const found = list.map((v: any) => v?.version).find((v): v is string => typeof v === "string" && !listed.has(v) && !listed.has(bare(v)));
    if (found) return [found];
  }
  return [];
}
