// E1 list deployments, E5 versions, E6 update, settings, delete, create, setup wizard.
import { canSeeDeployment, deploymentFor, requireAdmin, requireApiKey } from "./auth.js";
import type { AppRouter, Call } from "./ctx.js";
import { bad, conflict, created, fEnum, fStr, invalid, isObj, objBody, ok, wrap } from "./http.js";
import type { Json, Reply } from "./http.js";
import { cursorPage, offsetPage } from "./paging.js";
import { imageOf, settingsJson } from "./serialize.js";
import type { Deployment, Store } from "./store.js";

export const CLOUD_PROVIDERS = ["hosted", "aws", "gcp"] as const;
export const CREATION_METHODS = ["upload", "hosted", "github", "ssh"] as const;
export const DEPLOY_MODES = ["git", "cli"] as const;
export const CHANNELS = ["latest", "release"] as const;
const MAX_STEP = 5;

function cmpVersion(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

function heads(store: Store): Map<string, string> {
  const h = new Map<string, string>();
  for (const v of store.versions) {
    const cur = h.get(v.channel);
    if (!cur || cmpVersion(v.version, cur) > 0) h.set(v.channel, v.version);
  }
  return h;
}

/** E5 set: head of each channel plus versions the account has run before (and the current one). */
export function versionEntries(store: Store, d: Deployment): Json[] {
  const h = heads(store);
  const ran = new Set<string>();
  for (const dep of store.deployments.values()) {
    ran.add(dep.version);
    dep.pastVersions.forEach((v) => ran.add(v));
  }
  const listed = store.versions.filter((v) => h.get(v.channel) === v.version || ran.has(v.version));
  return listed
    .sort((a, b) => cmpVersion(b.version, a.version))
    .map((v) => ({
      releaseChannelVersion: imageOf(v.version),
      version: v.version,
      releaseChannel: v.channel,
      isLatestInChannel: h.get(v.channel) === v.version,
      isCurrent: d.version === v.version,
    }));
}

function parseVersionRef(v: unknown): string {
  if (typeof v !== "string") throw bad("releaseChannelVersion must be a string such as 1.7.20, v1.7.20 or cubejs/cube:v1.7.20");
  const m = /^(?:cubejs\/cube:v|v)?(\d+\.\d+\.\d+)$/.exec(v.trim());
  if (!m) throw bad(`releaseChannelVersion ${JSON.stringify(v)} is not one of the listed versions`);
  return m[1]!;
}

function listDeployments(c: Call): Reply {
  requireApiKey(c.p);
  const all = [...c.store.deployments.values()]
    .filter((d) => canSeeDeployment(c.p, d))
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))
    .map((d) => ({ id: String(d.id), name: d.name, created_at: d.createdAt }));
  const page = offsetPage(all, c.q);
  return ok({ data: { deployments: page.rows }, pagination: page.pagination });
}

function listVersions(c: Call): Reply {
  requireApiKey(c.p);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const page = cursorPage(versionEntries(c.store, d), c.q, `versions:${d.id}`, true);
  return ok({ items: page.rows, pageInfo: page.pageInfo });
}

function updateDeployment(c: Call): Reply {
  requireAdmin(c.p, "updating a deployment");
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const b = objBody(c.body);
  const next: Partial<Deployment> = {};
  const name = fStr(b, "name", false);
  if (name !== undefined) {
    if (name.trim() === "") throw invalid("name must not be empty");
    next.name = name.trim();
  }
  const cp = fEnum(b, "cloudProvider", CLOUD_PROVIDERS, false);
  if (cp) next.cloudProvider = cp;
  const region = fStr(b, "region", false);
  if (region !== undefined) next.region = region;
  const template = fStr(b, "template", false);
  if (template !== undefined) next.template = template;
  const cm = fEnum(b, "creationMethod", CREATION_METHODS, false);
  if (cm) next.creationMethod = cm;
  const dm = fEnum(b, "deployMode", DEPLOY_MODES, false);
  if (dm) next.deployMode = dm;
  if (b["defaultLaunchpadViewGroup"] !== undefined) {
    const g = b["defaultLaunchpadViewGroup"];
    if (g !== null && typeof g !== "string") throw invalid("defaultLaunchpadViewGroup must be a string or null");
    next.defaultLaunchpadViewGroup = g ?? undefined;
  }
  if (b["launchpadTabs"] !== undefined) {
    if (!Array.isArray(b["launchpadTabs"])) throw invalid("launchpadTabs must be an array");
    next.launchpadTabs = b["launchpadTabs"];
  }
  let tv: Record<string, string> | undefined;
  if (b["templateVariables"] !== undefined) {
    const t = b["templateVariables"];
    if (!isObj(t)) throw invalid("templateVariables must be an object");
    tv = { ...d.templateVariables };
    for (const [k, v] of Object.entries(t)) {
      if (v === null) delete tv[k];
      else if (typeof v !== "string") throw invalid(`templateVariables.${k} must be a string or null`);
      else tv[k] = v;
    }
  }
  let hold: boolean | undefined;
  if (b["releaseChannelVersionHold"] !== undefined) {
    if (typeof b["releaseChannelVersionHold"] !== "boolean") throw invalid("releaseChannelVersionHold must be a boolean");
    hold = b["releaseChannelVersionHold"];
  }
  const channel = b["releaseChannel"] !== undefined ? fEnum(b, "releaseChannel", CHANNELS, true) : undefined;
  if (b["releaseChannelVersion"] !== undefined) {
    const v = parseVersionRef(b["releaseChannelVersion"]);
    const entry = versionEntries(c.store, d).find((e) => e["version"] === v);
    if (!entry) throw bad(`releaseChannelVersion ${v} is not one of the versions listed for this deployment`);
    if (channel && entry["releaseChannel"] !== channel) throw bad(`version ${v} is not in release channel ${channel}`);
    next.version = v;
    next.releaseChannel = String(entry["releaseChannel"]);
    next.releaseChannelVersionHold = hold ?? !entry["isLatestInChannel"];
  } else if (channel) {
    const head = heads(c.store).get(channel);
    if (!head) throw invalid(`release channel ${channel} has no versions`);
    next.releaseChannel = channel;
    next.version = head;
    next.releaseChannelVersionHold = hold ?? false;
  } else if (hold !== undefined) next.releaseChannelVersionHold = hold;
  if (next.version && next.version !== d.version && !d.pastVersions.includes(d.version)) d.pastVersions.push(d.version);
  Object.assign(d, next);
  if (tv) d.templateVariables = tv;
  c.store.recordAudit(c.p.user.email, "Deployment updated", d.id, { fields: Object.keys(b).join(" ") });
  return wrap(settingsJson(d));
}

function deleteDeployment(c: Call): Reply {
  requireAdmin(c.p, "deleting a deployment");
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const s = c.store;
  s.deployments.delete(d.id);
  s.branches = s.branches.filter((b) => b.deploymentId !== d.id);
  for (const [id, it] of s.items) if (it.deploymentId === d.id) s.items.delete(id);
  for (const [id, db] of s.dashboards) if (db.deploymentId === d.id) s.dashboards.delete(id);
  for (const k of [...s.devSessions.keys()]) if (k.endsWith(`:${d.id}`)) s.devSessions.delete(k);
  s.dbtJobs = s.dbtJobs.filter((j) => j.deploymentId !== d.id);
  s.recordAudit(c.p.user.email, "Deployment deleted", d.id, { name: d.name });
  return wrap({ id: String(d.id), deleted: true });
}

function createDeployment(c: Call): Reply {
  requireAdmin(c.p, "creating a deployment");
  const b = objBody(c.body);
  const name = fStr(b, "name", true)!.trim();
  if (name === "") throw invalid("name must not be empty");
  const channel = fEnum(b, "releaseChannel", CHANNELS, false) ?? "latest";
  const s = c.store;
  const id = s.ids.deployment.take();
  const d: Deployment = {
    id,
    name,
    createdAt: new Date().toISOString(),
    cloudProvider: fEnum(b, "cloudProvider", CLOUD_PROVIDERS, false) ?? "hosted",
    region: fStr(b, "region", false) ?? "us-east-1",
    releaseChannel: channel,
    version: heads(s).get(channel)!,
    releaseChannelVersionHold: false,
    template: fStr(b, "template", false) ?? "postgres",
    templateVariables: {},
    launchpadTabs: [],
    creationMethod: fEnum(b, "creationMethod", CREATION_METHODS, false) ?? "hosted",
    deployMode: fEnum(b, "deployMode", DEPLOY_MODES, false) ?? "git",
    creationStep: 1,
    envVars: new Map(),
    pastVersions: [],
  };
  s.deployments.set(id, d);
  if (c.p.key.deploymentScope) c.p.key.deploymentScope.push(id);
  s.branches.push({
    id: s.ids.branch.take(),
    deploymentId: id,
    name: "main",
    kind: "production",
    lastHash: "0".repeat(40),
    staging: false,
    createdAt: d.createdAt,
    files: new Map(),
    buildStatus: "queued",
  });
  return created(settingsJson(d), `/api/v1/deployments/${id}/settings`);
}

function getSettings(c: Call): Reply {
  requireApiKey(c.p);
  return wrap(settingsJson(deploymentFor(c.store, c.p, c.params["deploymentId"])));
}

function stepAdvance(c: Call): Reply {
  requireAdmin(c.p, "driving the setup wizard");
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  if (d.creationStep >= MAX_STEP) throw conflict("the setup wizard is already complete", "wizard_complete");
  d.creationStep += 1;
  return wrap({ id: String(d.id), creationStep: d.creationStep, complete: d.creationStep >= MAX_STEP });
}

function stepReset(c: Call): Reply {
  requireAdmin(c.p, "driving the setup wizard");
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  d.creationStep = 1;
  return wrap({ id: String(d.id), creationStep: d.creationStep, complete: false });
}

export function registerDeployments(r: AppRouter): void {
  r.add("GET", "/api/v1/deployments", listDeployments);
  r.add("GET", "/api/v1/deployments/{deploymentId}/versions", listVersions);
  r.add("PUT", "/api/v1/deployments/{deploymentId}", updateDeployment);
  r.add("DELETE", "/api/v1/deployments/{deploymentId}", deleteDeployment);
  r.add("GET", "/api/v1/deployments/{deploymentId}/settings", getSettings);
  r.add("POST", "/build/api/v1/deployments", createDeployment);
  r.add("POST", "/api/v1/deployments/{deploymentId}/creation-step/advance", stepAdvance);
  r.add("POST", "/api/v1/deployments/{deploymentId}/creation-step/reset", stepReset);
}
