import { Api } from "../transport/api.js";
import { TOOL_NAME } from "../model/names.js";
import type { HttpClient } from "../transport/http.js";
import type { FixtureName } from "../model/needs.js";
import { Skip } from "../model/outcome.js";
import { allDeployments } from "../transport/deployments.js";
import { walkCursor } from "../transport/pagination.js";
import { discovered, discoveryWalkFailed, requireAnswer } from "../api/preconditions.js";
import type { FixtureConfig } from "../api/settings.js";
import { pathTo } from "../transport/client.js";
import type { OneShape } from "../api/operation-types.js";
import type { DeploymentVersion, Environment, Workbook } from "../api/schema-types.js";

/** An environment as either documented shape reads (E2): the list shape or the control-plane one. */
export interface EnvironmentView {
  id: string;
  type?: string;
  branch?: string | null;
  user?: string | null;
  name?: string;
  raw: Environment;
}

export interface BranchView {
  id?: number;
  name: string;
  isStagingEnvironmentEnabled?: boolean;
  raw: unknown;
}

export interface FixtureValues {
  deployment: { id: string };
  otherDeployment: { id: string };
  environment: { id: string };
  namedOtherDeployment: { id: string };
  mutableDeployment: { id: string };
  environments: EnvironmentView[];
  workbook: Workbook;
  workbookInFolder: Workbook;
  publishedWorkbook: Workbook;
  publishedWorkbookInFolder: Workbook;
  branches: BranchView[];
  sharedBranch: BranchView;
  personalBranch: BranchView;
  productionBranch: BranchView;
  versions: DeploymentVersion[];
  sharedWorkbook: { id: number };
  sharedUnpublishedWorkbook: { id: number };
  embeddableWorkbook: Workbook;
  /** The deployment, and a workbook of it to clone. */
  workbookLimitDeployment: { id: string; workbookId: number };
}

const WORKBOOK_SCAN_PAGES = 10;
/** How many deployments discovery compares (by the workbooks they hold) before it picks one. */
const DEPLOYMENT_CANDIDATES = 10;

/**
 * What the suite needs to find on a server it has never seen. Each fixture comes from the config
 * when named there, else from discovery through the API; none is taken from any seed data.
 * Resolved once per run. One the user did not configure and the server has none of (an empty
 * list) skips the checks that need it, naming the config key; a spec'd list endpoint that answers
 * 404, 5xx or garbage blocks them (core/api/preconditions.ts).
 */
export class Fixtures {
  private readonly cache = new Map<FixtureName, Promise<unknown>>();
  /** The deployment the run writes into, once chosen: what the door (core/run/door.ts) lets writes reach. */
  chosenDeployment?: string;
  constructor(
    readonly api: Api,
    private readonly config: FixtureConfig,
  ) {}

  get<K extends FixtureName>(name: K): Promise<FixtureValues[K]> {
    let p = this.cache.get(name);
    if (!p) {
      p = this.resolve(name);
      this.cache.set(name, p);
    }
    return p as Promise<FixtureValues[K]>;
  }

  private async resolve(name: FixtureName): Promise<unknown> {
    const c = this.config;
    switch (name) {
      case "deployment": {
        if (c.deploymentId !== undefined) return { id: String(c.deploymentId) };
        const id = await this.richestDeployment();
        if (id === undefined) throw new Skip("fixture missing: the deployments list (E1) is empty; set fixtures.deploymentId");
        this.chosenDeployment = id;
        return { id };
      }
      case "otherDeployment": {
        if (c.otherDeploymentId !== undefined) return { id: String(c.otherDeploymentId) };
        const mine = (await this.get("deployment")).id;
        const others = (await this.deploymentIds()).filter((id) => id !== mine);
        // A deployment whose plan limit is reached takes no new workbook: another one if there is.
        const other = others.find((id) => c.workbookLimitDeploymentId === undefined || id !== String(c.workbookLimitDeploymentId)) ?? others[0];
        if (!other) throw new Skip("fixture missing: the caller sees only one deployment; set fixtures.otherDeploymentId");
        return { id: other };
      }
      // Never discovered: writing into a second deployment, or changing one, is for a deployment the user named.
      case "namedOtherDeployment":
        if (c.otherDeploymentId === undefined) throw new Skip("writes into a second deployment only where one is named: set fixtures.otherDeploymentId");
        return { id: String(c.otherDeploymentId) };
      case "mutableDeployment":
        if (c.mutableDeploymentId === undefined)
          throw new Skip(
            "fixture missing: set fixtures.mutableDeploymentId (a deployment whose version, channel and settings the run may change and put back)",
          );
        return { id: String(c.mutableDeploymentId) };
      case "environments": {
        const dep = (await this.get("deployment")).id;
        const res = await this.api.call("listEnvironments", { deploymentId: dep });
        discovered(res, "the environments list", "E2");
        // The environment of a kind may sit past the first page: a cursor list is walked whole.
        if (Array.isArray(res.body.items) && res.body.pageInfo?.hasNextPage === true) {
          const walk = await walkCursor<Environment>(this.api, pathTo("listEnvironments", { deploymentId: dep }), { first: 100, endpoint: "E2" }).catch(
            discoveryWalkFailed("the environments list", "E2"),
          );
          return walk.items.map(environmentView);
        }
        const { items, data } = res.body;
        const raw: Environment[] = items ?? (Array.isArray(data) ? data : data?.environments) ?? [];
        return raw.map(environmentView);
      }
      case "environment": {
        if (c.environmentId !== undefined) return { id: c.environmentId };
        // Chosen by type, not by position: the production environment, where there is one.
        const envs = await this.get("environments");
        const first = envs.find((e) => e.type === "production") ?? envs[0];
        if (!first) throw new Skip("fixture missing: the environments list (E2) is empty; set fixtures.environmentId");
        return { id: first.id };
      }
      case "workbook": {
        if (c.workbookId !== undefined) return this.workbookById(c.workbookId);
        const found = await this.findWorkbook(() => true);
        if (!found) throw new Skip("fixture missing: no workbook in the deployment's workbooks list (E8); set fixtures.workbookId");
        return found;
      }
      case "workbookInFolder": {
        const found = await this.findWorkbook((w) => typeof w.folderId === "number");
        if (!found) throw new Skip("fixture missing: no workbook inside a folder was found in the first pages of E8");
        return found;
      }
      case "publishedWorkbookInFolder": {
        const found = await this.findWorkbook((w) => w.publishedDashboard != null && typeof w.folderId === "number", true);
        if (!found) throw new Skip("fixture missing: no workbook with a published dashboard inside a folder was found in the first pages of E8");
        return found;
      }
      case "publishedWorkbook": {
        const found = await this.findWorkbook((w) => w.publishedDashboard != null, true);
        if (!found) throw new Skip("fixture missing: no workbook with a published dashboard was found in the first pages of E8");
        return found;
      }
      case "sharedWorkbook": {
        if (c.sharedWorkbookId === undefined)
          throw new Skip("fixture missing: set fixtures.sharedWorkbookId (a shared-workspace workbook with a published dashboard)");
        return { id: c.sharedWorkbookId };
      }
      case "sharedUnpublishedWorkbook": {
        if (c.sharedUnpublishedWorkbookId === undefined)
          throw new Skip("fixture missing: set fixtures.sharedUnpublishedWorkbookId (a shared-workspace workbook without a published dashboard)");
        return { id: c.sharedUnpublishedWorkbookId };
      }
      case "embeddableWorkbook": {
        const found = await this.findWorkbook((w) => w.publishedDashboard?.allowEmbed === true, true);
        if (!found) throw new Skip("fixture missing: no workbook whose published dashboard has allowEmbed true was found in the first pages of E8");
        return found;
      }
      case "workbookLimitDeployment": {
        if (c.workbookLimitDeploymentId === undefined)
          throw new Skip("fixture missing: set fixtures.workbookLimitDeploymentId (a deployment whose plan's workbook limit is reached)");
        const id = String(c.workbookLimitDeploymentId);
        // A workbook to clone may sit past the first page (a newest-first server may open with reports).
        const walk = await walkCursor<Workbook>(this.api, pathTo("listWorkbooks", { deploymentId: id }), {
          first: 50,
          stopAfter: WORKBOOK_SCAN_PAGES,
          endpoint: "E8",
        }).catch(discoveryWalkFailed("the workbooks list of fixtures.workbookLimitDeploymentId", "E8"));
        const source = walk.items.find((w) => w?.type === undefined || w.type === "WORKBOOK");
        if (!source || !Number.isSafeInteger(source.id))
          throw new Skip(`fixture missing: deployment ${id} (fixtures.workbookLimitDeploymentId) lists no workbook to clone`);
        return { id, workbookId: source.id };
      }
      case "branches":
        return listBranches(this.api, (await this.get("deployment")).id);
      case "productionBranch":
        return this.branchNamed(
          c.productionBranch,
          async () => (await this.environmentBranches((e) => e.type === "production"))?.[0],
          "productionBranch",
          "the branch of the production environment",
        );
      case "personalBranch":
        return this.branchNamed(
          c.personalBranch,
          async () => (await this.environmentBranches((e) => e.type === "development" && !!e.user))?.[0],
          "personalBranch",
          "the branch of a development environment with a user",
        );
      case "sharedBranch":
        return this.branchNamed(
          c.sharedBranch,
          () => this.sharedBranchName(),
          "sharedBranch",
          "a branch that is neither production nor a personal development branch",
        );
      case "versions": {
        const dep = (await this.get("deployment")).id;
        const res = await this.api.call("listVersions", { deploymentId: dep });
        const list = res.isJson ? (res.body?.data ?? res.body?.items) : undefined;
        discovered(res, "the versions list", "E5", () => Array.isArray(list));
        return list;
      }
    }
  }

  private deploymentList?: Promise<string[]>;
  /** The ids E1 lists, in either documented shape, sorted: whatever order the server lists them in. */
  private deploymentIds(): Promise<string[]> {
    this.deploymentList ??= allDeployments(this.api).then(
      (list) => list.map((d) => String(d?.id)).sort((a, b) => a.localeCompare(b, "en", { numeric: true })),
      discoveryWalkFailed("the deployments list", "E1"),
    );
    return this.deploymentList;
  }

  /**
   * The deployment most checks can work on: the one listing the most workbooks (count, else the
   * first page), among the first few, leaving out the one configured as at its workbook limit.
   * Chosen by what it holds, never by its place in the list.
   */
  private async richestDeployment(): Promise<string | undefined> {
    const limited = this.config.workbookLimitDeploymentId;
    const candidates = (await this.deploymentIds()).filter((id) => limited === undefined || id !== String(limited)).slice(0, DEPLOYMENT_CANDIDATES);
    let best: { id: string; workbooks: number } | undefined;
    for (const id of candidates) {
      const res = await this.api.call("listWorkbooks", { deploymentId: id });
      const body = res.status === 200 && res.isJson ? res.body : undefined;
      const workbooks = typeof body?.count === "number" ? body.count : Array.isArray(body?.items) ? body.items.length : -1;
      if (!best || workbooks > best.workbooks) best = { id, workbooks };
    }
    return best?.id ?? (await this.deploymentIds())[0];
  }

  private async workbookById(id: number): Promise<Workbook> {
    const dep = (await this.get("deployment")).id;
    const res = await this.api.call("getWorkbook", { deploymentId: dep, workbookId: id });
    discovered(res, `the workbook fixtures.workbookId (${id})`, "E9");
    return res.body;
  }

  private async findWorkbook(match: (w: Workbook) => boolean, readEach = false): Promise<Workbook | undefined> {
    const dep = (await this.get("deployment")).id;
    // A lost connection is not an empty list: it must not turn into a "fixture missing" skip.
    const walk = await walkCursor<Workbook>(this.api, pathTo("listWorkbooks", { deploymentId: dep }), {
      first: 50,
      stopAfter: WORKBOOK_SCAN_PAGES,
      endpoint: "E8",
    }).catch(discoveryWalkFailed("the workbooks list", "E8"));
    // Oldest first (workspace ids are integers): the choice does not follow the server's order, and prefers what no run created.
    const items = (walk?.items ?? []).filter((w) => w?.type === undefined || w.type === "WORKBOOK").sort((a, b) => Number(a?.id) - Number(b?.id));
    // Not one a run of the tool made where another will do: that run (or its sweep) may remove it meanwhile.
    const listed = items.find((w) => match(w) && !TOOL_NAME.test(String(w?.name ?? ""))) ?? items.find(match);
    if (listed || !readEach) return listed;
    for (const w of items.slice(0, 40)) {
      const full = await this.api.call("getWorkbook", { deploymentId: dep, workbookId: w.id });
      if (full.status === 200 && full.isJson && match(full.body)) return full.body;
    }
    return undefined;
  }

  private async branchNamed(configured: string | undefined, discover: () => Promise<string | undefined>, key: string, what: string): Promise<BranchView> {
    const name = configured ?? (await discover());
    if (!name) throw new Skip(`fixture missing: could not find ${what}; set fixtures.${key}`);
    const branches = await this.get("branches").catch(() => [] as BranchView[]);
    return branches.find((b) => b.name === name) ?? { name, raw: { name } };
  }

  /**
   * The branches of the environments that match, or undefined when E2 names no branch at all
   * (the control-plane shape shows only a display name): then no branch can be told apart by
   * the environment that runs it.
   */
  private async environmentBranches(match: (e: EnvironmentView) => boolean): Promise<string[] | undefined> {
    const envs = await this.get("environments");
    if (!envs.some((e) => typeof e.branch === "string")) return undefined;
    return envs.filter((e) => match(e) && typeof e.branch === "string").map((e) => e.branch!);
  }

  /**
   * A shared branch. Proven first: only a shared branch can have its staging environment on
   * (States table), so a branch flagged on in the branches list, or listed by E2 as a staging
   * environment, is one. Else, where E2 names branches, one that no production or development
   * environment runs. Where E2 names none, nothing else tells a shared branch from a personal or
   * the production one, so the fixture is left to the config.
   */
  private async sharedBranchName(): Promise<string | undefined> {
    const branches = await this.get("branches");
    const staging = new Set(await this.environmentBranches((e) => e.type === "staging"));
    const proven = branches.find((b) => b.isStagingEnvironmentEnabled === true || staging.has(b.name));
    if (proven) return proven.name;
    const notShared = await this.environmentBranches((e) => e.type === "production" || e.type === "development");
    if (!notShared) return undefined;
    return branches.find((b) => !notShared.includes(b.name))?.name;
  }
}

/** The branches list (E14; shape from the platform's docs): items with a name, flag read only where it is a boolean. */
export async function listBranches(api: Api, dep: string): Promise<BranchView[]> {
  const res = await api.call("listBranches", { deploymentId: dep });
  requireAnswer(res, "E14", "discovering the branches (fixtures.sharedBranch, personalBranch, productionBranch name them instead)");
  // E14: the shape is the server's; the list where the published docs put it.
  const body = res.body as { items?: unknown[]; data?: unknown };
  const raw: unknown[] = body.items ?? (Array.isArray(body.data) ? body.data : []);
  return raw
    .filter((b): b is { name: string; id?: unknown; isStagingEnvironmentEnabled?: unknown } => typeof (b as { name?: unknown } | null)?.name === "string")
    .map((b) => ({
      id: typeof b.id === "number" ? b.id : undefined,
      name: b.name,
      isStagingEnvironmentEnabled: typeof b.isStagingEnvironmentEnabled === "boolean" ? b.isStagingEnvironmentEnabled : undefined,
      raw: b,
    }));
}

export function environmentView(e: Environment): EnvironmentView {
  // Either documented shape, read field by field.
  const v: OneShape<Environment> = e;
  return { id: String(v?.id), type: v?.type, branch: v?.branch, user: v?.user, name: v?.name, raw: e };
}

/** Per door: see fixturesFor. */
const PER_DOOR = new WeakMap<HttpClient, Fixtures>();

/**
 * The run's one discovery: the plan printed before the run, the checks and the report's sections all
 * read the same choices (the deployment written above all), made once through the run's door.
 */
export function fixturesFor(door: HttpClient, config: FixtureConfig): Fixtures {
  let fixtures = PER_DOOR.get(door);
  if (!fixtures) PER_DOOR.set(door, (fixtures = new Fixtures(new Api(door, door.options.credential ?? null, []), config)));
  return fixtures;
}
