import { bundledOpenApi } from "../../core/api/schemas.js";
import { ok, type Route } from "../http.js";
import { offsetPage } from "../paging.js";
import type { DeploymentRecord } from "../store.js";
import { deploymentOf } from "./common.js";
import { ownOperationsDocumented } from "./own-operations.js";

const spec = bundledOpenApi();

/** Resources / Deployment: a list item. */
export const deploymentItem = (d: DeploymentRecord) => ({ id: String(d.id), name: d.name, created_at: d.created_at });

export const imageOf = (dep: DeploymentRecord, version: string) => `${dep.imageRepository}:v${version}`;

/** Resources / Deployment version entry, for every version the deployment may switch to (E5). */
export function versionEntries(dep: DeploymentRecord) {
  const latest = new Map<string, string>();
  for (const v of dep.versions)
    if (!latest.has(v.releaseChannel) || compareVersions(v.version, latest.get(v.releaseChannel)!) > 0) latest.set(v.releaseChannel, v.version);
  return dep.versions.map((v) => ({
    releaseChannelVersion: imageOf(dep, v.version),
    version: v.version,
    releaseChannel: v.releaseChannel,
    isLatestInChannel: latest.get(v.releaseChannel) === v.version,
    isCurrent: dep.settings.releaseChannelVersion === imageOf(dep, v.version),
  }));
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

export const deploymentRoutes: Route[] = [
  {
    operation: "listDeployments",
    handler: (req, app) => {
      const page = offsetPage(app.b, app.b.listedDeployments(req.user, app.store.deployments), req.query);
      return ok({ data: { deployments: page.items.map(deploymentItem) }, pagination: page.pagination });
    },
  },
  {
    operation: "getDeploymentSettings",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      return ok({ id: dep.id, name: dep.name, ...dep.settings });
    },
  },
  {
    operation: "getAppConfig",
    handler: (req) =>
      ok({
        appTheme: "light",
        applyThemeGlobally: false,
        creatorMode: req.user.creatorMode,
        embedding: { enabled: true },
        sheetsUi: false,
        timezoneSettings: { timezone: "UTC" },
      }),
  },
  {
    operation: "listVersions",
    handler: (req, app) => ok({ data: versionEntries(deploymentOf(app, req)) }),
  },
  { operation: "getSpec", handler: async () => ok(ownOperationsDocumented(await spec)) },
];
