// Serializers: optional fields are LEFT OUT when empty (never sent as null).
import { normalizeConfig } from "./dashboard.js";
import type { Json } from "./http.js";
import { MASK, isSecretName } from "./store.js";
import type { Branch, Dashboard, Deployment, Item, Store, User } from "./store.js";
import type { Principal } from "./auth.js";

function put(o: Json, k: string, v: unknown): void {
  if (v !== undefined && v !== null) o[k] = v;
}

export function owner(u: User | undefined): Json | undefined {
  if (!u) return undefined;
  const o: Json = { id: u.id, email: u.email };
  put(o, "firstName", u.firstName);
  put(o, "picture", u.picture);
  return o;
}

/** Ancestors of the containing folder (root first), excluding the containing folder itself. */
export function folderPath(store: Store, item: Item): Array<{ id: number; name: string }> {
  const path: Array<{ id: number; name: string }> = [];
  if (item.folderId === undefined) return path;
  const containing = store.items.get(item.folderId);
  let cur = containing?.folderId !== undefined ? store.items.get(containing.folderId) : undefined;
  const seen = new Set<number>();
  while (cur && !seen.has(cur.id)) {
    seen.add(cur.id);
    path.unshift({ id: cur.id, name: cur.name });
    cur = cur.folderId !== undefined ? store.items.get(cur.folderId) : undefined;
  }
  return path;
}

export function dashboardJson(d: Dashboard): Json {
  const o: Json = {
    id: d.id,
    publicId: d.publicId,
    deploymentId: d.deploymentId,
    workbookId: d.workbookId,
    status: d.status,
    allowEmbed: d.allowEmbed,
    config: normalizeConfig(d.config),
    versionNumber: d.versionNumber,
    versionId: d.versionId,
    reportSnapshots: d.reportSnapshots.map((s) => {
      const r: Json = { id: s.id, reportId: s.reportId, versionNumber: s.versionNumber };
      put(r, "kind", s.kind);
      put(r, "name", s.name);
      put(r, "title", s.title);
      put(r, "sqlQuery", s.sqlQuery);
      put(r, "spec", s.spec);
      put(r, "isSourceReport", s.isSourceReport);
      return r;
    }),
  };
  put(o, "createdBy", d.createdBy);
  put(o, "title", d.title);
  put(o, "description", d.description);
  return o;
}

export function workbookJson(store: Store, item: Item, viewer?: Principal): Json {
  const o: Json = {
    id: item.id,
    deploymentId: item.deploymentId,
    name: item.name,
    type: item.type,
    meta: item.meta,
    calculatedFields: item.calculatedFields,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
  put(o, "createdBy", item.createdBy);
  put(o, "userId", item.ownerId);
  put(o, "user", owner(item.ownerId !== undefined ? store.users.get(item.ownerId) : undefined));
  put(o, "folderId", item.folderId);
  const fp = folderPath(store, item);
  if (fp.length) o["folderPath"] = fp;
  if (viewer) o["isFavorite"] = item.favoriteOf.includes(viewer.user.id);
  put(o, "slug", item.slug);
  if (item.dashboardDraft) o["dashboardDraft"] = normalizeConfig(item.dashboardDraft);
  const d = item.dashboardId !== undefined ? store.dashboards.get(item.dashboardId) : undefined;
  if (d) {
    o["dashboardPublished"] = normalizeConfig(d.config);
    o["publishedDashboard"] = dashboardJson(d);
  }
  return o;
}

export function reportJson(store: Store, item: Item, viewer?: Principal): Json {
  const o = workbookJson(store, item, viewer);
  put(o, "workbookId", item.workbookId);
  put(o, "publicId", item.publicId);
  put(o, "lastViewedAt", item.lastViewedAt);
  put(o, "externalWorkbookId", item.externalWorkbookId);
  return o;
}

export function folderJson(store: Store, f: Item): Json {
  const o: Json = {
    id: f.id,
    name: f.name,
    position: f.position ?? 0,
    deploymentId: f.deploymentId,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    type: "FOLDER",
  };
  put(o, "parentId", f.folderId);
  put(o, "createdBy", f.createdBy);
  put(o, "user", owner(f.ownerId !== undefined ? store.users.get(f.ownerId) : undefined));
  const fp = folderPath(store, f);
  if (fp.length) o["folderPath"] = fp;
  return o;
}

export function branchJson(b: Branch): Json {
  const o: Json = { id: b.id, name: b.name };
  put(o, "parentBranch", b.parentBranch);
  o["lastHash"] = b.lastHash;
  o["isStagingEnvironmentEnabled"] = b.staging;
  return o;
}

export function maskValue(name: string, value: string): string {
  return isSecretName(name) ? MASK : value;
}

export function envVarsJson(d: Deployment): Array<{ name: string; value: string }> {
  return [...d.envVars.entries()].sort((a, b) => (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0)).map(([name, value]) => ({ name, value: maskValue(name, value) }));
}

export function userJson(u: User): Json {
  const o: Json = { id: u.id, email: u.email };
  put(o, "firstName", u.firstName);
  put(o, "lastName", u.lastName);
  put(o, "picture", u.picture);
  o["role"] = u.role;
  o["status"] = u.status;
  o["permissions"] = u.permissions;
  o["createdAt"] = u.createdAt;
  return o;
}

export function imageOf(version: string): string {
  return `cubejs/cube:v${version}`;
}

/** Deployment settings with secrets excluded (secret-named template variables and env vars). */
export function settingsJson(d: Deployment): Json {
  const tv: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.templateVariables)) if (!isSecretName(k)) tv[k] = v;
  const o: Json = {
    id: d.id,
    name: d.name,
    cloudProvider: d.cloudProvider,
    region: d.region,
    releaseChannel: d.releaseChannel,
    releaseChannelVersion: imageOf(d.version),
    version: d.version,
    releaseChannelVersionHold: d.releaseChannelVersionHold,
    image: imageOf(d.version),
    template: d.template,
    templateVariables: tv,
  };
  put(o, "defaultLaunchpadViewGroup", d.defaultLaunchpadViewGroup);
  o["launchpadTabs"] = d.launchpadTabs;
  o["creationMethod"] = d.creationMethod;
  o["deployMode"] = d.deployMode;
  o["creationStep"] = d.creationStep;
  o["envVarNames"] = [...d.envVars.keys()]
    .filter((n) => !isSecretName(n))
    .sort()
    .reverse();
  o["createdAt"] = d.createdAt;
  return o;
}
