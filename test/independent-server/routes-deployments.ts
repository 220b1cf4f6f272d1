// E1, E5, E6, E13 and deployment-level E14 operations (control plane).
import { cursorPage, HttpError, isObject, isoOffset, noContent, offsetPage, ok, requireObjectBody, strAsc, toBool } from "./http-util.js";
import type { Route } from "./router.js";
import { deployment } from "./seed.js";
import { deleteItemDeep, findDeployment, isSecretName, type Deployment, type State } from "./store.js";

const CREATION_METHODS = new Set(["upload", "hosted", "<hosted>", "github", "ssh"]);
const DEPLOY_MODES = new Set(["git", "cli"]);
const CLOUD_PROVIDERS = new Set(["hosted", "<hosted>", "aws", "gcp"]);

export function deploymentListItem(d: Deployment): Record<string, unknown> {
  return { id: d.id, name: d.name, created_at: isoOffset(d.createdAt), region: d.region, status: "running" };
}

export function deploymentSettings(d: Deployment): Record<string, unknown> {
  const entry = d.versions.find((v) => v.releaseChannelVersion === d.releaseChannelVersion);
  return {
    id: d.id,
    name: d.name,
    created_at: isoOffset(d.createdAt),
    cloudProvider: d.cloudProvider,
    region: d.region,
    releaseChannel: d.releaseChannel,
    releaseChannelVersion: d.releaseChannelVersion,
    version: entry ? entry.version : null,
    releaseChannelVersionHold: d.releaseChannelVersionHold,
    image: d.releaseChannelVersion,
    template: d.template,
    templateVariables: d.templateVariables,
    defaultLaunchpadViewGroup: d.defaultLaunchpadViewGroup,
    launchpadTabs: d.launchpadTabs,
    creationMethod: d.creationMethod,
    deployMode: d.deployMode,
    envVarCount: d.envVars.size,
  };
}

function versionsOf(d: Deployment): Record<string, unknown>[] {
  return d.versions.map((v) => ({ ...v, isCurrent: v.releaseChannelVersion === d.releaseChannelVersion }));
}

function str(b: Record<string, unknown>, k: string, allowed?: Set<string>): string | undefined {
  const v = b[k];
  if (v === undefined) return undefined;
  if (typeof v !== "string" || v.trim() === "") throw new HttpError(422, `${k} must be a non-empty string`);
  if (allowed && !allowed.has(v)) throw new HttpError(422, `${k} must be one of ${[...allowed].join(", ")}`);
  return v;
}

function updateDeployment(d: Deployment, b: Record<string, unknown>): void {
  // Validate everything first, then apply (all-or-nothing).
  const cloudProvider = str(b, "cloudProvider", CLOUD_PROVIDERS);
  const region = str(b, "region");
  const template = str(b, "template");
  const creationMethod = str(b, "creationMethod", CREATION_METHODS);
  const deployMode = str(b, "deployMode", DEPLOY_MODES);
  const channel = str(b, "releaseChannel");
  let hold: boolean | undefined;
  if (b.releaseChannelVersionHold !== undefined) {
    hold = toBool(b.releaseChannelVersionHold);
    if (hold === undefined) throw new HttpError(422, "releaseChannelVersionHold must be a boolean");
  }
  if (b.templateVariables !== undefined && !isObject(b.templateVariables)) throw new HttpError(422, "templateVariables must be an object");
  if (b.launchpadTabs !== undefined && !Array.isArray(b.launchpadTabs)) throw new HttpError(422, "launchpadTabs must be an array");
  const lvg = b.defaultLaunchpadViewGroup;
  if (lvg !== undefined && lvg !== null && typeof lvg !== "string") throw new HttpError(422, "defaultLaunchpadViewGroup must be a string or null");
  let target: string | undefined;
  let targetChannel: string | undefined;
  if (b.releaseChannelVersion !== undefined) {
    const raw = typeof b.releaseChannelVersion === "string" ? b.releaseChannelVersion.trim() : "";
    const hit = d.versions.filter((v) => raw !== "" && (v.releaseChannelVersion === raw || v.version === raw || `v${v.version}` === raw));
    const entry = channel ? hit.find((v) => v.releaseChannel === channel) : hit[0];
    if (!entry) throw new HttpError(400, `releaseChannelVersion ${JSON.stringify(b.releaseChannelVersion)} is not one of the listed versions`);
    target = entry.releaseChannelVersion;
    targetChannel = entry.releaseChannel;
  } else if (channel !== undefined) {
    const latest = d.versions.find((v) => v.releaseChannel === channel && v.isLatestInChannel);
    if (!latest) throw new HttpError(400, `unknown release channel ${channel}`);
    target = latest.releaseChannelVersion;
    targetChannel = channel;
  }
  if (cloudProvider !== undefined) d.cloudProvider = cloudProvider;
  if (region !== undefined) d.region = region;
  if (template !== undefined) d.template = template;
  if (creationMethod !== undefined) d.creationMethod = creationMethod;
  if (deployMode !== undefined) d.deployMode = deployMode;
  if (hold !== undefined) d.releaseChannelVersionHold = hold;
  if (target !== undefined && targetChannel !== undefined) {
    d.releaseChannelVersion = target;
    d.releaseChannel = targetChannel;
  }
  if (isObject(b.templateVariables)) {
    for (const [k, v] of Object.entries(b.templateVariables).filter(([k]) => k !== "__proto__")) {
      if (v === null) delete d.templateVariables[k];
      else d.templateVariables[k] = v;
    }
  }
  if (Array.isArray(b.launchpadTabs)) d.launchpadTabs = structuredClone(b.launchpadTabs);
  if (lvg !== undefined) d.defaultLaunchpadViewGroup = lvg as string | null;
}

function envVarPage(d: Deployment, q: URLSearchParams): Record<string, unknown> {
  const all = [...d.envVars.entries()]
    .map(([name, value]) => ({ name, value: isSecretName(name) ? "[ENCRYPTED]" : value }))
    .sort((a, b) => strAsc(a.name, b.name));
  const page = cursorPage(all, (e) => e.name, strAsc, q);
  return { items: page.items, data: page.items, pageInfo: page.pageInfo };
}

function setEnvVars(d: Deployment, b: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(b.variables)) throw new HttpError(422, "variables must be an array of {name, value}");
  const replace = b.replace === undefined ? false : toBool(b.replace);
  if (replace === undefined) throw new HttpError(422, "replace must be a boolean");
  const changes: [string, string | null][] = [];
  for (const [i, v] of b.variables.entries()) {
    if (!isObject(v) || typeof v.name !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v.name)) {
      throw new HttpError(422, `variables[${i}].name must be an identifier-like string`);
    }
    if (v.value !== null && typeof v.value !== "string" && typeof v.value !== "number" && typeof v.value !== "boolean") {
      throw new HttpError(422, `variables[${i}].value must be a string or null`);
    }
    changes.push([v.name, v.value === null ? null : String(v.value)]);
  }
  const removed: string[] = [];
  if (replace) {
    const keep = new Set(changes.filter(([, v]) => v !== null).map(([n]) => n));
    for (const n of [...d.envVars.keys()])
      if (!keep.has(n)) {
        d.envVars.delete(n);
        removed.push(n);
      }
  }
  const updated: string[] = [];
  for (const [n, v] of changes) {
    if (v === null) {
      if (d.envVars.delete(n)) removed.push(n);
    } else {
      d.envVars.set(n, v);
      updated.push(n);
    }
  }
  return { data: { updated, removed, total: d.envVars.size } };
}

function createDeployment(st: State, b: Record<string, unknown>): Deployment {
  const name = str(b, "name");
  if (name === undefined) throw new HttpError(422, "name is required");
  st.seq.deployment += 13;
  const fresh = deployment(String(st.seq.deployment), name, new Date(), "", "stable", (st.seq.branch += 40));
  fresh.envVars = new Map();
  fresh.secrets = {};
  fresh.templateVariables = {};
  fresh.branches = fresh.branches.filter((x) => x.kind === "production");
  const stable = fresh.versions.find((v) => v.releaseChannel === "stable" && v.isLatestInChannel);
  if (stable) fresh.releaseChannelVersion = stable.releaseChannelVersion;
  updateDeployment(fresh, { ...b, name: undefined });
  st.deployments.push(fresh);
  return fresh;
}

export const deploymentRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/v1/deployments",
    style: "control",
    handler: ({ st, query }) => {
      const all = [...st.deployments].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
      const page = offsetPage(all, query);
      return ok({ data: { deployments: page.items.map(deploymentListItem) }, pagination: page.pagination });
    },
  },
  {
    method: "PUT",
    path: "/api/v1/deployments/:deploymentId",
    style: "control",
    handler: ({ st, params, body }) => {
      const d = findDeployment(st, params.deploymentId);
      updateDeployment(d, requireObjectBody(body));
      return ok({ data: deploymentSettings(d) });
    },
  },
  {
    method: "DELETE",
    path: "/api/v1/deployments/:deploymentId",
    style: "control",
    handler: ({ st, params }) => {
      const d = findDeployment(st, params.deploymentId);
      st.deployments = st.deployments.filter((x) => x !== d);
      for (const it of [...st.items.values()]) if (it.deploymentId === Number(d.id) && st.items.has(it.id)) deleteItemDeep(st, it);
      return noContent();
    },
  },
  {
    method: "GET",
    path: "/api/v1/deployments/:deploymentId/versions",
    style: "control",
    handler: ({ st, params }) => ok({ data: versionsOf(findDeployment(st, params.deploymentId)) }),
  },
  {
    method: "GET",
    path: "/api/v1/deployments/:deploymentId/settings",
    style: "control",
    handler: ({ st, params }) => ok({ data: deploymentSettings(findDeployment(st, params.deploymentId)) }),
  },
  {
    method: "GET",
    path: "/api/v1/deployments/:deploymentId/env-vars",
    style: "control",
    handler: ({ st, params, query }) => ok(envVarPage(findDeployment(st, params.deploymentId), query)),
  },
  {
    method: "PUT",
    path: "/api/v1/deployments/:deploymentId/env-vars",
    style: "control",
    handler: ({ st, params, body }) => ok(setEnvVars(findDeployment(st, params.deploymentId), requireObjectBody(body))),
  },
  {
    method: "POST",
    path: "/build/api/v1/deployments",
    style: "control",
    handler: ({ st, body }) => ok({ data: deploymentSettings(createDeployment(st, requireObjectBody(body))) }, 201),
  },
];
