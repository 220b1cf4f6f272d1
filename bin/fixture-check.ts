import { Api } from "../core/transport/api.js";
import { allDeployments } from "../core/transport/deployments.js";
import { Fixtures, listBranches } from "../core/check/fixtures.js";
import type { Credential, HttpClient } from "../core/transport/http.js";
import { walkCursor } from "../core/transport/pagination.js";
import { type FixtureConfig, UsageError } from "../core/api/settings.js";
import { pathTo } from "../core/transport/client.js";

/** Folder listings preflight spends looking for a configured folder before it gives no verdict. */
const FOLDER_LISTINGS = 50;

type Key = keyof FixtureConfig;

/**
 * A fixture named in the config that the server does not have is the user's mistake (a config
 * copied from config.example.json, another tenant's ids): one line naming each such key, exit 2,
 * instead of a run whose failures are all charged to the server. A fixture counts as missing only
 * where the server gave a usable whole list without it (or a 404 that its list confirms); a list
 * that cannot be read gives no verdict here: that is for the checks to judge.
 */
export async function checkFixtures(client: HttpClient, credential: Credential | undefined, config: FixtureConfig): Promise<void> {
  const api = new Api(client, credential ?? null, []);
  const missing: string[] = [];
  const deployments = await allDeployments(api).then(
    (list) => list.map((d) => String(d?.id)),
    () => undefined,
  );
  const absent = (["deploymentId", "otherDeploymentId", "mutableDeploymentId", "workbookLimitDeploymentId"] as const).filter(
    (k) => deployments && config[k] !== undefined && !deployments.includes(String(config[k])),
  );
  if (absent.length)
    missing.push(
      `${absent.map((k) => `fixtures.${k} ${JSON.stringify(config[k])}`).join(", ")}: GET ${pathTo("listDeployments")} lists no such deployment (it lists ${listed(deployments!)})`,
    );
  if (!absent.includes("deploymentId")) missing.push(...(await inTheDeployment(api, config)));
  if (missing.length) throw new UsageError(`the config names fixtures the server does not have: ${missing.join("; ")}`);
}

/** The fixtures that live in the deployment under test (configured, or the one discovery picks). */
async function inTheDeployment(api: Api, config: FixtureConfig): Promise<string[]> {
  const dependent: Key[] = [
    "environmentId",
    "workbookId",
    "sharedWorkbookId",
    "sharedUnpublishedWorkbookId",
    "readOnlyFolderId",
    "editableFolderId",
    "scratchFolderIds",
    "sharedBranch",
    "personalBranch",
    "productionBranch",
  ];
  if (!dependent.some((k) => config[k] !== undefined)) return [];
  const fixtures = new Fixtures(api, config);
  const dep = await fixtures.get("deployment").then(
    (d) => d.id,
    () => undefined,
  );
  if (dep === undefined) return [];
  const missing: string[] = [];
  const where = `deployment ${dep}`;

  if (config.environmentId !== undefined) {
    const envs = await fixtures.get("environments").catch(() => undefined);
    if (envs && !envs.some((e) => e.id === String(config.environmentId)))
      missing.push(`fixtures.environmentId ${JSON.stringify(config.environmentId)}: the environments of ${where} (E2) are ${listed(envs.map((e) => e.id))}`);
  }
  for (const key of ["workbookId", "sharedWorkbookId", "sharedUnpublishedWorkbookId"] as const) {
    const id = config[key];
    if (id !== undefined && (await workbookMissing(api, dep, id)))
      missing.push(
        `fixtures.${key} ${id}: GET ${pathTo("getWorkbook", { deploymentId: dep, workbookId: id })} answered 404 and the workbooks list of ${where} (E8) does not hold it`,
      );
  }
  const folders: [string, number][] = [
    ...(["readOnlyFolderId", "editableFolderId"] as const).filter((k) => config[k] !== undefined).map((k) => [`fixtures.${k}`, config[k]!] as [string, number]),
    ...(config.scratchFolderIds ?? []).map((id) => ["fixtures.scratchFolderIds", id] as [string, number]),
  ];
  if (folders.length) {
    const all = await folderIds(api, dep);
    for (const [key, id] of folders) if (all && !all.has(id)) missing.push(`${key} ${id}: no folder of ${where} has that id (folders list, E14)`);
  }
  const branchKeys = (["sharedBranch", "personalBranch", "productionBranch"] as const).filter((k) => config[k] !== undefined);
  if (branchKeys.length) {
    const names = await listBranches(api, dep).then(
      (list) => list.map((b) => b.name),
      () => undefined,
    );
    for (const key of branchKeys)
      if (names?.length && !names.includes(config[key]!))
        missing.push(`fixtures.${key} ${JSON.stringify(config[key])}: the branches of ${where} are ${listed(names)}`);
  }
  return missing;
}

/** A 404 on E9 that the whole E8 list confirms (an E9 that answers 404 for everything is the server's fault, for the checks). */
async function workbookMissing(api: Api, dep: string, id: number): Promise<boolean> {
  const res = await api.call("getWorkbook", { deploymentId: dep, workbookId: id });
  if (res.status !== 404) return false;
  const walk = await walkCursor(api, pathTo("listWorkbooks", { deploymentId: dep }), { first: 100 }).catch(() => undefined);
  return walk !== undefined && !walk.partial && !walk.items.some((w: any) => w?.id === id);
}

/**
 * Every folder id of the deployment, walking the tree level by level (the list shows one level
 * at a time), or undefined when the list is not usable or the tree is larger than preflight walks.
 */
async function folderIds(api: Api, dep: string): Promise<Set<number> | undefined> {
  const found = new Set<number>();
  const queue: (number | null)[] = [null];
  for (let listings = 0; queue.length; listings++) {
    if (listings >= FOLDER_LISTINGS) return undefined;
    const parent = queue.shift()!;
    // E14: a folder's id where the published docs put it.
    const walk = await walkCursor<{ id?: number }>(api, pathTo("listFolders", { deploymentId: dep }), {
      first: 100,
      query: { parentId: parent ?? undefined },
    }).catch(() => undefined);
    if (!walk || walk.partial || !walk.pages.every((p) => Array.isArray(p.res.body?.items))) return undefined;
    for (const f of walk.items) if (f?.id !== undefined && Number.isSafeInteger(f.id) && !found.has(f.id)) found.add(f.id), queue.push(f.id);
  }
  return found;
}

function listed(ids: string[]): string {
  if (!ids.length) return "none";
  const shown = ids.slice(0, 10).join(", ");
  return ids.length > 10 ? `${shown}, … ${ids.length} in all` : shown;
}
