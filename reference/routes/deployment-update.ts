import { HttpError, ok, type App, type Route } from "../http.js";
import type { DeploymentRecord } from "../store.js";
import { deploymentOf } from "./common.js";
import { imageOf, versionEntries } from "./deployments.js";

type Settings = DeploymentRecord["settings"];

const isString = (v: unknown) => typeof v === "string";
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** E6 names the fields but not their types (not shown): these are the schema's plausible ones. */
const FIELD_TYPES: Record<string, [valid: (v: unknown) => boolean, type: string]> = {
  cloudProvider: [isString, "a string"],
  region: [isString, "a string"],
  releaseChannel: [isString, "a string"],
  releaseChannelVersion: [isString, "a string"],
  releaseChannelVersionHold: [(v) => typeof v === "boolean", "a boolean"],
  template: [isString, "a string"],
  templateVariables: [(v) => isObject(v) && Object.values(v).every(isString), "an object of strings"],
  defaultLaunchpadViewGroup: [(v) => v === null || isString(v), "a string or null"],
  launchpadTabs: [Array.isArray, "an array"],
  image: [isString, "a string"],
};

/** Fields stored as sent; the release fields are resolved against the versions instead, and the image from the version (rule 3). */
const STORED_AS_SENT = [
  "cloudProvider",
  "region",
  "releaseChannelVersionHold",
  "template",
  "templateVariables",
  "defaultLaunchpadViewGroup",
  "launchpadTabs",
] as const;

/** E6 rules 1 and 2: the version a body moves to, and the release settings that follow from it. */
function versionChange(app: App, dep: DeploymentRecord, body: Record<string, any>): Partial<Settings> {
  const entries = versionEntries(dep);
  const channel: string | undefined = body.releaseChannel;
  if (channel !== undefined && !entries.some((e) => e.releaseChannel === channel))
    throw new HttpError(400, `releaseChannel ${JSON.stringify(channel)} is not a channel of this deployment`);
  let target: (typeof entries)[number] | undefined;
  if (body.releaseChannelVersion !== undefined) {
    const version = app.b.resolveVersion(body.releaseChannelVersion, dep.versions, dep.imageRepository);
    if (!version)
      throw new HttpError(400, `releaseChannelVersion ${JSON.stringify(body.releaseChannelVersion)} is not one of the versions listed for this deployment`);
    if (channel !== undefined && channel !== version.releaseChannel) throw new HttpError(400, `version ${version.version} is not in channel ${channel}`);
    target = entries.find((e) => e.version === version.version);
  } else if (channel !== undefined) {
    target = app.b.channelMoveTarget(channel, entries);
  }
  if (!target) return {};
  const image = imageOf(dep, target.version);
  // published docs: a version that is not its channel's latest also holds the deployment there.
  return {
    releaseChannel: target.releaseChannel,
    releaseChannelVersion: image,
    image,
    releaseChannelVersionHold: body.releaseChannelVersionHold ?? !target.isLatestInChannel,
  };
}

export const deploymentUpdateRoutes: Route[] = [
  {
    operation: "updateDeployment",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const body = req.body;
      if (!isObject(body)) throw new HttpError(400, "the body must be a JSON object");
      for (const [field, [valid, type]] of Object.entries(FIELD_TYPES))
        if (body[field] !== undefined && !valid(body[field])) throw new HttpError(400, `${field} must be ${type}`);
      if (body.image !== undefined) throw new HttpError(400, "image is resolved from releaseChannelVersion and cannot be set");
      const patch: Partial<Settings> = {};
      for (const field of STORED_AS_SENT) if (body[field] !== undefined) Object.assign(patch, { [field]: body[field] });
      Object.assign(patch, versionChange(app, dep, body));
      // Stored only after versionChange has validated the release fields: a rejected body changes nothing.
      dep.settings = app.b.mergeSettings(dep.settings, patch);
      return ok({ id: dep.id, name: dep.name, ...dep.settings });
    },
  },
];
