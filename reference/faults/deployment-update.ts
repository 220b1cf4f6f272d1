import { clean, storedPastTheHandler } from "./kit/control-plane.js";
import { cleanBehaviour } from "../behaviour.js";
import { closestPatch } from "./kit/properties.js";
import { looselyEqualStrings } from "./kit/input-domain.js";
import { versionEntries } from "../routes/deployments.js";
import { HttpError, type Fault, type Reply } from "../http.js";
import { deploymentOf } from "../routes/common.js";
import { forgetsTheOneLeft, storedDespiteRefusedVersion } from "./kit/deployment-update.js";

/** Per reference app, the settings answer each deployment's first read cached (fault settings-read-cached). */
const cachedSettings = new WeakMap<object, Map<string, Reply>>();

/** The faults of the group deployment-update (suites/deployment-update/): each makes a check of it fail, for the reason its `because` names. */
export const deploymentUpdateFaults: Fault[] = [
  {
    name: "versions-forget-the-one-left",
    breaks: "E5 (older versions the account has run before)",
    description: "an accepted version change stops recording the version left behind: one its channel does not mark latest drops out of E5",
    because: { "deployment-update.versions.run-before-listed": "run-before-listed" },
    operations: ["updateDeployment"],
    handle: forgetsTheOneLeft(() => true),
  },
  {
    name: "versions-forget-the-one-left-by-channel",
    breaks: "E5 (older versions the account has run before); E6 rule 2",
    description: "a move by releaseChannel alone does not record the version left behind (a move naming the version does)",
    because: { "deployment-update.versions.run-before-listed": "run-before-listed" },
    operations: ["updateDeployment"],
    handle: forgetsTheOneLeft((body) => body?.releaseChannel !== undefined && body?.releaseChannelVersion === undefined),
  },
  {
    name: "settings-read-cached",
    breaks: "E6 (partial merge: templateVariables merged key by key); settings: E14",
    description:
      "the settings answer is cached at its first read and dropped only by an update of the release channel or version: after any other update the settings still read as before",
    because: { "deployment-update.merge.template-variables": "merged-key-by-key", "deployment-update.hold.read-back": "read-back" },
    routes: ["E6"],
    operations: ["getDeploymentSettings"],
    handle: async ({ req, app, next }) => {
      const cache = cachedSettings.get(app) ?? new Map<string, Reply>();
      cachedSettings.set(app, cache);
      const dep = req.params.deploymentId;
      if (req.method === "GET") {
        const held = cache.get(dep);
        if (held) return held;
        const reply = await next();
        if (reply.status === 200) cache.set(dep, reply);
        return reply;
      }
      if (req.body?.releaseChannel !== undefined || req.body?.releaseChannelVersion !== undefined) cache.delete(dep);
      return next();
    },
  },
  {
    name: "channel-alone-own-channel-no-op",
    breaks: "E6 rule 2",
    description: "releaseChannel sent alone naming the deployment's own channel keeps the current version instead of moving to the channel's latest",
    because: { "deployment-update.channel.moves-to-latest": "current-version" },
    behaviour: {
      channelMoveTarget: (channel, entries) =>
        entries.find((e) => e.releaseChannel === channel && (e as { isCurrent?: boolean }).isCurrent === true) ??
        entries.find((e) => e.releaseChannel === channel && e.isLatestInChannel),
    },
  },
  {
    name: "version-v-prefix-rejected",
    breaks: "E6 rule 1",
    description: "a version written `v1.7.20` is not recognised",
    because: { "deployment-update.version.listed-forms": "status" },
    behaviour: { resolveVersion: (input, versions, repository) => (/^v/i.test(input.trim()) ? undefined : clean.resolveVersion(input, versions, repository)) },
  },
  {
    name: "version-image-reference-rejected",
    breaks: "E6 rule 1",
    description: "a version written as its image-style reference is not recognised",
    because: { "deployment-update.version.listed-forms": "status" },
    behaviour: { resolveVersion: (input, versions, repository) => (input.includes(":") ? undefined : clean.resolveVersion(input, versions, repository)) },
  },
  {
    name: "version-unlisted-accepted",
    breaks: "E6 rule 1; Errors 2",
    description: "a releaseChannelVersion that is not listed switches to the last listed version instead of a 400",
    // The first body sent holds other fields beside the version: its acceptance fails the check as a client error expected.
    because: { "deployment-update.version.unlisted-rejected": "client-error" },
    behaviour: { resolveVersion: (input, versions, repository) => clean.resolveVersion(input, versions, repository) ?? versions.at(-1) },
  },
  {
    name: "version-of-any-deployment-accepted",
    breaks: "E6 rule 1 (one of the versions listed by E5)",
    description:
      "releaseChannelVersion is looked up in a catalogue of every deployment's versions, not in this deployment's E5 list: a version only another deployment lists is taken (E5 still does not list it here)",
    because: { "deployment-update.version.unlisted-rejected": "status", "deployment-update.version.listed-here-only": "status" },
    routes: ["E6"],
    handle: async ({ req, app, next }) => {
      const dep = deploymentOf(app, req);
      const sent = (req.body as { releaseChannelVersion?: unknown } | undefined)?.releaseChannelVersion;
      if (typeof sent !== "string" || clean.resolveVersion(sent, dep.versions, dep.imageRepository)) return next();
      const elsewhere = app.store.deployments.flatMap((d) => d.versions).find((v) => clean.resolveVersion(sent, [v], dep.imageRepository));
      if (!elsewhere) return next();
      const listed = dep.versions;
      dep.versions = [...listed, { ...elsewhere }];
      try {
        return await next();
      } finally {
        dep.versions = listed;
      }
    },
  },
  {
    name: "refused-version-applies-other-fields",
    breaks: "E6 rule 1 (any other value is rejected with 400)",
    description: "an unlisted releaseChannelVersion is refused with 400, but the other fields of the body were stored before the version was checked",
    because: { "deployment-update.version.unlisted-rejected": "settings-unchanged" },
    routes: ["E6"],
    handle: storedDespiteRefusedVersion(({ releaseChannelVersion: _refused, releaseChannel: _channel, image: _image, ...others }) => others),
  },
  {
    name: "refused-version-422-applies-other-fields",
    breaks: "E6 rule 1 (any other value is rejected with 400)",
    description:
      "an unlisted releaseChannelVersion is refused with 422 (a validation error), and the other fields of the body were stored before the version was checked: the state after the refusal is wrong whatever its status",
    because: { "deployment-update.version.unlisted-rejected": "settings-unchanged" },
    routes: ["E6"],
    handle: storedDespiteRefusedVersion(({ releaseChannelVersion: _refused, releaseChannel: _channel, image: _image, ...others }) => others, 422),
  },
  {
    name: "refused-version-applies-fields-read-first",
    breaks: "E6 rule 1 (any other value is rejected with 400)",
    description:
      "an update stores cloudProvider, region and template as it reads them, before the version: an unlisted releaseChannelVersion is refused with 400, and those three keep what the refused body sent (the hold and the template variables, read after the version, do not)",
    because: { "deployment-update.version.unlisted-rejected": "settings-unchanged" },
    routes: ["E6"],
    handle: storedDespiteRefusedVersion(({ cloudProvider, region, template }) =>
      Object.fromEntries(Object.entries({ cloudProvider, region, template }).filter(([, v]) => v !== undefined)),
    ),
  },
  {
    name: "channel-switch-not-to-latest",
    breaks: "E6 rule 2",
    description: "releaseChannel alone moves to the first version listed for that channel, not its latest",
    because: { "deployment-update.channel.moves-to-latest": "current-version" },
    behaviour: { channelMoveTarget: (channel, entries) => entries.find((e) => e.releaseChannel === channel) },
  },
  {
    name: "template-variables-replaced",
    breaks: "E6 (templateVariables merged key by key)",
    description: "templateVariables sent replace the stored ones wholesale",
    because: { "deployment-update.merge.template-variables": "merged-key-by-key", "deployment-update.merge.template-variables-new-key": "merged-key-by-key" },
    behaviour: { mergeSettings: (stored, patch) => ({ ...stored, ...patch }) },
  },
  {
    name: "template-variables-new-key-replaces",
    breaks: "E6 (templateVariables merged key by key)",
    description: "templateVariables sent with a key the deployment does not have replace the stored ones wholesale (keys it has are merged)",
    because: { "deployment-update.merge.template-variables-new-key": "merged-key-by-key" },
    behaviour: {
      mergeSettings: (stored, patch) => {
        const merged = cleanBehaviour.mergeSettings(stored, patch);
        const sent = Object.keys(patch.templateVariables ?? {});
        if (sent.some((k) => !(k in (stored.templateVariables ?? {})))) merged.templateVariables = { ...patch.templateVariables };
        return merged;
      },
    },
  },
  {
    name: "omitted-settings-reset",
    breaks: "E6 (partial merge)",
    description: "an update resets every field it does not send to an empty value",
    because: { "deployment-update.merge.omitted-fields-kept": "kept:defaultLaunchpadViewGroup" },
    behaviour: {
      mergeSettings: (stored, patch) => ({
        ...stored,
        cloudProvider: "",
        region: "",
        template: "",
        templateVariables: {},
        defaultLaunchpadViewGroup: null,
        launchpadTabs: [],
        ...patch,
      }),
    },
  },
  {
    name: "hold-reset-when-omitted",
    breaks: "E6 (partial merge)",
    description:
      "an update that sends no version, channel or hold sets releaseChannelVersionHold false: a change of template variables unpins a pinned deployment",
    because: { "deployment-update.merge.omitted-fields-kept": "kept:releaseChannelVersionHold" },
    behaviour: {
      mergeSettings: (stored, patch) => ({
        ...stored,
        ...(["releaseChannelVersion", "releaseChannel", "releaseChannelVersionHold"].some((f) => f in patch) ? {} : { releaseChannelVersionHold: false }),
        ...patch,
      }),
    },
  },
  {
    name: "launchpad-tabs-reset-view-group",
    breaks: "E6 (partial merge)",
    description: "an update that sends launchpadTabs without defaultLaunchpadViewGroup resets the view group to null (the two launchpad settings taken as one)",
    because: { "deployment-update.merge.omitted-fields-kept": "kept:defaultLaunchpadViewGroup" },
    behaviour: {
      mergeSettings: (stored, patch) => ({
        ...stored,
        ...("launchpadTabs" in patch && !("defaultLaunchpadViewGroup" in patch) ? { defaultLaunchpadViewGroup: null } : {}),
        ...patch,
      }),
    },
  },
  {
    name: "image-settable",
    breaks: "E6 rule 3",
    description: "a body's image is stored as the deployment's image",
    because: { "deployment-update.image.not-settable": "image-ignored" },
    routes: ["E6"],
    // A version sent resolves the image, as it would over an image stored as sent.
    handle: storedPastTheHandler(
      "image",
      (v) => typeof v === "string",
      (settings, image, rest) => (rest.releaseChannelVersion === undefined && rest.releaseChannel === undefined ? { ...settings, image } : settings),
    ),
  },
  {
    name: "image-settable-beside-version",
    breaks: "E6 rule 3",
    description: "a body with image alone is refused, but beside a releaseChannelVersion the image is stored as sent (over the one the version resolves)",
    because: { "deployment-update.image.not-settable": "image-ignored" },
    routes: ["E6"],
    handle: (call) => {
      if (typeof call.req.body?.image === "string" && call.req.body.releaseChannelVersion === undefined) throw new HttpError(400, "image cannot be set");
      return storedPastTheHandler(
        "image",
        (v) => typeof v === "string",
        (settings, image) => ({ ...settings, image }),
      )(call);
    },
  },
  {
    name: "image-kept-across-versions",
    breaks: "E6 rule 3",
    description: "a version switch moves the release fields, but the image stays the one the deployment was created with",
    because: { "deployment-update.image.follows-version": "image-follows" },
    routes: ["E6"],
    handle: async ({ req, app, next }) => {
      const dep = deploymentOf(app, req);
      const image = dep.settings.image;
      const reply = await next();
      dep.settings = { ...dep.settings, image };
      return reply;
    },
  },
  {
    name: "template-variable-values-untyped",
    breaks: "E6 (templateVariables: values are strings)",
    description: "templateVariables are taken whatever their values (a number, an object), as long as they come as an object",
    because: { "deployment-update.negative.mistyped-fields": "client-error" },
    routes: ["E6"],
    handle: storedPastTheHandler(
      "templateVariables",
      (v) => typeof v === "object" && v !== null && !Array.isArray(v) && !Object.values(v).every((x) => typeof x === "string"),
      (settings, templateVariables, _rest, app) => app.b.mergeSettings(settings, { templateVariables }),
    ),
  },
  {
    name: "template-variable-empty-dropped",
    breaks: "E6 (templateVariables merged key by key)",
    description: 'a templateVariables key sent with the value "" is dropped instead of stored as ""',
    because: { "deployment-update.merge.template-variables": "merged-key-by-key" },
    behaviour: {
      mergeSettings: (stored, patch) => {
        const merged = cleanBehaviour.mergeSettings(stored, patch);
        const sent = Object.entries(patch.templateVariables ?? {}).filter(([, v]) => v === "");
        for (const [k] of sent) delete merged.templateVariables[k];
        return merged;
      },
    },
  },
  {
    name: "template-variable-numeric-respelling-kept",
    breaks: "E6 (templateVariables merged key by key)",
    description:
      'a templateVariables value is written only when it differs from the stored one as PHP\'s == compares strings: "1e1" sent over a stored "10" (and "01" over "1") is taken for no change',
    because: { "deployment-update.merge.template-variables": "merged-key-by-key" },
    behaviour: {
      mergeSettings: (stored, patch) => {
        const merged = cleanBehaviour.mergeSettings(stored, patch);
        const before = (stored.templateVariables ?? {}) as Record<string, unknown>;
        for (const [k, v] of Object.entries(patch.templateVariables ?? {})) {
          const was = before[k];
          if (looselyEqualStrings(v, was)) merged.templateVariables[k] = was;
        }
        return merged;
      },
    },
  },
  {
    name: "version-image-name-ignored",
    breaks: "E6 rule 1",
    description:
      "an image-style reference is read by its tag alone: another image (or none) with a listed version's tag (other/image:v1.7.20, :v1.7.20) is taken as that version",
    because: { "deployment-update.version.near-miss-forms": "status" },
    behaviour: {
      resolveVersion: (input, versions, repository) => cleanBehaviour.resolveVersion(input.replace(/^[^:\s]*:/, `${repository}:`), versions, repository),
    },
  },
  {
    name: "version-capital-v-accepted",
    breaks: "E6 rule 1",
    description: "a version written with a capital V (V1.7.20) is taken as v1.7.20",
    because: { "deployment-update.version.near-miss-forms": "status" },
    behaviour: { resolveVersion: (input, versions, repository) => cleanBehaviour.resolveVersion(input.replace(/^(\s*)V/, "$1v"), versions, repository) },
  },
  {
    name: "version-unlisted-patch-rounds",
    breaks: "E6 rule 1",
    description: "a version whose major and minor are listed but whose patch is not (1.7.5) is taken as the closest listed patch instead of a 400",
    because: { "deployment-update.version.near-miss-forms": "status", "deployment-update.negative.unlisted-version": "status" },
    behaviour: { resolveVersion: closestPatch },
  },
  {
    name: "update-without-version-moves-to-latest",
    breaks: "E6 (partial merge)",
    description:
      "an update that sends neither releaseChannel nor releaseChannelVersion moves the deployment to its channel's latest version and drops the hold",
    because: { "deployment-update.merge.omitted-fields-kept": "kept:version" },
    routes: ["E6"],
    respond: ({ status, body, req, app }) => {
      if (
        req.method !== "PUT" ||
        status !== 200 ||
        typeof req.body !== "object" ||
        req.body === null ||
        "releaseChannel" in req.body ||
        "releaseChannelVersion" in req.body
      )
        return body;
      const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
      const latest = dep && versionEntries(dep).find((e) => e.releaseChannel === dep.settings.releaseChannel && e.isLatestInChannel);
      if (!dep || !latest) return body;
      dep.settings = {
        ...dep.settings,
        releaseChannelVersion: latest.releaseChannelVersion,
        image: latest.releaseChannelVersion,
        releaseChannelVersionHold: false,
      };
      return { ...body, ...dep.settings };
    },
  },
  {
    name: "template-variable-long-truncated",
    breaks: "E6 (templateVariables merged key by key)",
    description: "a templateVariables value longer than 255 characters is stored cut to its first 255 (a VARCHAR(255) column)",
    because: { "deployment-update.merge.template-variables": "merged-key-by-key" },
    behaviour: {
      mergeSettings: (stored, patch) => {
        const merged = cleanBehaviour.mergeSettings(stored, patch);
        for (const [k, v] of Object.entries(patch.templateVariables ?? {}))
          if (typeof v === "string" && v.length > 255) merged.templateVariables[k] = v.slice(0, 255);
        return merged;
      },
    },
  },
  {
    name: "deployment-channel-stored-before-check",
    breaks: "E6 rule 2; E5 (the channels the versions list)",
    description:
      "a releaseChannel no listed version is in is stored before it is checked: the update answers 400, and the deployment keeps the unknown channel",
    because: { "deployment-update.channel.unlisted-refused": "settings-unchanged" },
    routes: ["E6"],
    handle: ({ req, app, next }) => {
      const channel = (req.body as { releaseChannel?: unknown } | undefined)?.releaseChannel;
      const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
      if (typeof channel === "string" && dep && !dep.versions.some((v) => v.releaseChannel === channel))
        dep.settings = { ...dep.settings, releaseChannel: channel };
      return next();
    },
  },
];
