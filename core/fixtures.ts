import type { Api } from "./api.js";
import type { FixtureName } from "./check.js";
import { Skip } from "./outcome.js";
import { walkCursor } from "./pagination.js";
import type { FixtureConfig } from "./settings.js";

/** An environment as either documented shape reads (E2): the list shape or the control-plane one. */
export interface EnvironmentView {
  id: string;
  type?: string;
  branch?: string;
  user?: string;
  name?: string;
  raw: any;
}

export interface BranchView {
  id?: number;
  name: string;
  isStagingEnvironmentEnabled?: boolean;
  raw: any;
}

export interface FixtureValues {
  deployment: { id: string };
  otherDeployment: { id: string };
  namedOtherDeployment: { id: string };
  mutableDeployment: { id: string };
  environments: EnvironmentView[];
  workbook: any;
  workbookInFolder: any;
  publishedWorkbook: any;
  branches: BranchView[];
  sharedBranch: BranchView;
  personalBranch: BranchView;
  productionBranch: BranchView;
  versions: any[];
  readOnlyFolder: { id: number };
  editableFolder: { id: number };
  sharedWorkbook: { id: number };
  sharedUnpublishedWorkbook: { id: number };
  embeddableWorkbook: any;
  workbookLimitDeployment: { id: string };
}

const WORKBOOK_SCAN_PAGES = 10;

/**
 * What the suite needs to find on a server it has never seen. Each fixture comes from the config
 * when named there, else from discovery through the API; none is taken from any seed data.
 * Resolved once per run; a missing one skips the checks that need it, with the reason.
 */
export class Fixtures {
  private readonly cache = new Map<FixtureName, Promise<unknown>>();
  constructor(private readonly api: Api, private readonly config: FixtureConfig) {}

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
        const list = await this.deployments();
        if (!list.length) throw new Skip("fixture missing: the deployments list (E1) is empty; set fixtures.deploymentId");
        return { id: String(list[0].id) };
      }
      case "otherDeployment": {
        if (c.otherDeploymentId !== undefined) return { id: String(c.otherDeploymentId) };
        const mine = (await this.get("deployment")).id;
        const other = (await this.deployments()).find((d) => String(d.id) !== mine);
        if (!other) throw new Skip("fixture missing: the caller sees only one deployment; set fixtures.otherDeploymentId");
        return { id: String(other.id) };
      }
      // Never discovered: writing into a second deployment, or changing one, is for a deployment the user named.
      case "namedOtherDeployment":
        if (c.otherDeploymentId === undefined) throw new Skip("writes into a second deployment only where one is named: set fixtures.otherDeploymentId");
        return { id: String(c.otherDeploymentId) };
      case "mutableDeployment":
        if (c.mutableDeploymentId === undefined) throw new Skip("fixture missing: set fixtures.mutableDeploymentId (a deployment whose version, channel and settings the run may change and put back)");
        return { id: String(c.mutableDeploymentId) };
      case "environments": {
        const dep = (await this.get("deployment")).id;
        const res = await this.api.get(`/api/v1/deployments/${dep}/environments`);
        if (res.status !== 200 || !res.isJson) throw new Skip(`fixture missing: the environments list (E2) answered ${res.status}`);
        const raw: any[] = res.body.items ?? res.body.data?.environments ?? (Array.isArray(res.body.data) ? res.body.data : []);
        return raw.map(environmentView);
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
      case "publishedWorkbook": {
        const found = await this.findWorkbook((w) => w.publishedDashboard != null, true);
        if (!found) throw new Skip("fixture missing: no workbook with a published dashboard was found in the first pages of E8");
        return found;
      }
      case "sharedWorkbook": {
        if (c.sharedWorkbookId === undefined) throw new Skip("fixture missing: set fixtures.sharedWorkbookId (a shared-workspace workbook with a published dashboard)");
        return { id: c.sharedWorkbookId };
      }
      case "sharedUnpublishedWorkbook": {
        if (c.sharedUnpublishedWorkbookId === undefined) throw new Skip("fixture missing: set fixtures.sharedUnpublishedWorkbookId (a shared-workspace workbook without a published dashboard)");
        return { id: c.sharedUnpublishedWorkbookId };
      }
      case "embeddableWorkbook": {
        const found = await this.findWorkbook((w) => w.publishedDashboard?.allowEmbed === true, true);
        if (!found) throw new Skip("fixture missing: no workbook whose published dashboard has allowEmbed true was found in the first pages of E8");
        return found;
      }
      case "workbookLimitDeployment":
        if (c.workbookLimitDeploymentId === undefined) throw new Skip("fixture missing: set fixtures.workbookLimitDeploymentId (a deployment whose plan's workbook limit is reached)");
        return { id: String(c.workbookLimitDeploymentId) };
      case "readOnlyFolder":
        if (c.readOnlyFolderId === undefined) throw new Skip("fixture missing: set fixtures.readOnlyFolderId (a folder the readOnly token can read but not edit)");
        return { id: c.readOnlyFolderId };
      case "editableFolder":
        if (c.editableFolderId === undefined) throw new Skip("fixture missing: set fixtures.editableFolderId (a folder the readOnly token may edit)");
        return { id: c.editableFolderId };
      case "branches": {
        const dep = (await this.get("deployment")).id;
        const res = await this.api.get(`/build/api/v1/deployments/${dep}/branches`);
        if (res.status !== 200 || !res.isJson) throw new Skip(`fixture missing: the branches list answered ${res.status}`);
        const raw: any[] = res.body.items ?? (Array.isArray(res.body.data) ? res.body.data : []);
        return raw.filter((b) => typeof b?.name === "string").map((b) => ({ id: typeof b.id === "number" ? b.id : undefined, name: b.name, isStagingEnvironmentEnabled: b.isStagingEnvironmentEnabled, raw: b }));
      }
      case "productionBranch":
        return this.branchNamed(c.productionBranch, async () => (await this.get("environments")).find((e) => e.type === "production")?.branch, "productionBranch", "the branch of the production environment");
      case "personalBranch":
        return this.branchNamed(c.personalBranch, async () => (await this.get("environments")).find((e) => e.type === "development" && e.user)?.branch, "personalBranch", "the branch of a development environment with a user");
      case "sharedBranch":
        return this.branchNamed(c.sharedBranch, async () => {
          const envs = await this.get("environments");
          const notShared = new Set(envs.filter((e) => e.type === "production" || e.type === "development").map((e) => e.branch));
          const branches = await this.get("branches");
          return (branches.find((b) => !notShared.has(b.name) && !b.isStagingEnvironmentEnabled) ?? branches.find((b) => !notShared.has(b.name)))?.name;
        }, "sharedBranch", "a branch that is neither production nor a personal development branch");
      case "versions": {
        const dep = (await this.get("deployment")).id;
        const res = await this.api.get(`/api/v1/deployments/${dep}/versions`);
        const list = res.isJson ? (res.body?.data ?? res.body?.items) : undefined;
        if (res.status !== 200 || !Array.isArray(list)) throw new Skip(`fixture missing: the versions list (E5) answered ${res.status}`);
        return list;
      }
    }
  }

  private deploymentsList?: Promise<any[]>;
  private deployments(): Promise<any[]> {
    this.deploymentsList ??= this.api.get("/api/v1/deployments", { limit: 100 }).then((res) => {
      if (res.status !== 200 || !res.isJson || !Array.isArray(res.body?.data?.deployments)) throw new Skip(`fixture missing: the deployments list (E1) answered ${res.status}`);
      return res.body.data.deployments;
    });
    return this.deploymentsList;
  }

  private async workbookById(id: number): Promise<any> {
    const dep = (await this.get("deployment")).id;
    const res = await this.api.get(`/api/v1/deployments/${dep}/workbooks/${id}`);
    if (res.status !== 200 || !res.isJson) throw new Skip(`fixture missing: fixtures.workbookId ${id} answered ${res.status}`);
    return res.body;
  }

  private async findWorkbook(match: (w: any) => boolean, readEach = false): Promise<any | undefined> {
    const dep = (await this.get("deployment")).id;
    const walk = await walkCursor(this.api, `/api/v1/deployments/${dep}/workbooks`, { first: 50, maxPages: WORKBOOK_SCAN_PAGES }).catch(() => undefined);
    const items = (walk?.items ?? []).filter((w) => w?.type === undefined || w.type === "WORKBOOK");
    const listed = items.find(match);
    if (listed || !readEach) return listed;
    for (const w of items.slice(0, 40)) {
      const full = await this.api.get(`/api/v1/deployments/${dep}/workbooks/${w.id}`);
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
}

export function environmentView(e: any): EnvironmentView {
  return { id: String(e?.id), type: e?.type, branch: e?.branch, user: e?.user, name: e?.name, raw: e };
}
