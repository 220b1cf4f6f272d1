import { accessTo, atLeast } from "../../access.js";
import { type App, HttpError, ok, type Req, type Route } from "../../http.js";
import { e14 } from "../../e14/state.js";
import type { DeploymentRecord } from "../../store.js";
import { deploymentOf, itemOf, itemsOf } from "../common.js";
import { versionEntries } from "../deployments.js";
import { listAnswer, readFields, recordsOf } from "./engine.js";
import { resourceDefs } from "./resources.js";

/**
 * E14 platform operations: regions, logs (source and container filters), pods, build status, the
 * setup wizard, deployment create and delete, tenant settings, GitHub discovery, embed access per
 * workbook (actions read and none) and signed embedding of a published dashboard.
 */
/** E14: embed access actions. */
export const EMBED_ACTIONS = ["read", "none"];
export const LOG_SOURCES = ["production", "dev"] as const;
export const LOG_CONTAINERS = ["INIT", "MAIN", "vector", "api-proxy", "cube"] as const;
const REGIONS = [
  { id: "aws-us-east-1", cloudProvider: "aws", region: "us-east-1", name: "US East (N. Virginia)" },
  { id: "aws-eu-west-1", cloudProvider: "aws", region: "eu-west-1", name: "Europe (Ireland)" },
  { id: "gcp-us-central1", cloudProvider: "gcp", region: "us-central1", name: "US Central (Iowa)" },
  { id: "gcp-europe-west3", cloudProvider: "gcp", region: "europe-west3", name: "Europe (Frankfurt)" },
  { id: "hosted-global", cloudProvider: "hosted", region: "global", name: "Hosted" },
];
const CREATION_STEPS = ["connect-source", "generate-model", "deploy", "done"];
const TENANT_SETTINGS = {
  fields: { defaultTimezone: "string", allowPublicDashboards: "boolean", sessionTimeoutMinutes: "integer", ssoEnforced: "boolean" },
  required: [],
} as const;
const tenantDef = resourceDefs.find((d) => d.name === "embed-tenants")!;

function enumParam(req: Req, name: string, values: readonly string[]): string | null {
  const v = req.query.get(name);
  if (v !== null && !values.includes(v)) throw new HttpError(400, `${name} must be one of ${values.join(", ")}`);
  return v;
}

function logEntries(dep: DeploymentRecord) {
  const out: { timestamp: string; source: string; container: string; level: string; message: string }[] = [];
  LOG_SOURCES.forEach((source, i) =>
    LOG_CONTAINERS.forEach((container, j) =>
      out.push({
        timestamp: new Date(Date.UTC(2026, 1, 1, 8, i * 10 + j)).toISOString(),
        source,
        container,
        level: j === 1 ? "warn" : "info",
        message: `${container} of ${dep.name} (${source}) is up`,
      }),
    ),
  );
  return out;
}

function embedAccessList(app: App, wbId: number) {
  const m = e14(app.store).embedAccess.get(wbId) ?? new Map();
  return [...m].map(([tenant, action]) => ({ tenantId: tenant === "*" ? null : Number(tenant), allEmbedUsers: tenant === "*", action }));
}

function publishedDashboard(app: App, publicId: string) {
  for (const wb of app.store.items.values()) if (wb.publishedDashboard?.publicId === publicId) return wb;
  throw new HttpError(404, `dashboard ${publicId} not found`);
}

function newDeployment(app: App, body: any): DeploymentRecord {
  const template = app.store.deployments[0];
  const id = Math.max(...app.store.deployments.map((d) => d.id)) + 1;
  const dep: DeploymentRecord = {
    ...structuredClone({ ...template, secrets: {} }),
    id,
    name: body.name,
    created_at: new Date().toISOString(),
    workbookLimit: null,
    envVars: [],
  };
  // A new deployment has run nothing before: E5 lists each channel's latest and the version it runs.
  const latest = new Set(
    versionEntries(template)
      .filter((v) => v.isLatestInChannel || v.isCurrent)
      .map((v) => v.version),
  );
  dep.versions = dep.versions.filter((v) => latest.has(v.version));
  dep.settings.cloudProvider = body.cloudProvider ?? dep.settings.cloudProvider;
  dep.settings.region = body.region ?? dep.settings.region;
  dep.settings.creationMethod = body.creationMethod ?? dep.settings.creationMethod;
  dep.settings.deployMode = body.deployMode ?? dep.settings.deployMode;
  return dep;
}

export const platformRoutes: Route[] = [
  { operation: "listRegions", handler: (req, app) => listAnswer(app, REGIONS, req.query) },
  {
    operation: "getLogs",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const source = enumParam(req, "source", LOG_SOURCES);
      const container = enumParam(req, "container", LOG_CONTAINERS);
      return listAnswer(
        app,
        logEntries(dep).filter((e) => app.b.logMatches(e, source, container)),
        req.query,
      );
    },
  },
  {
    operation: "listPods",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      return listAnswer(
        app,
        ["api", "refresh-worker", "cubestore-router"].map((role, i) => ({
          name: `${role}-${dep.id}-${i}`,
          role,
          status: "Running",
          restarts: i,
          startedAt: "2026-02-01T08:00:00.000Z",
        })),
        req.query,
      );
    },
  },
  {
    operation: "getBuildStatus",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const name = req.query.get("branchName") ?? dep.branches.find((b) => b.kind === "production")!.name;
      const b = dep.branches.find((x) => x.name === name);
      if (!b) throw new HttpError(404, `branch ${name} not found`);
      return ok({ branchName: b.name, status: "deployed", lastHash: b.lastHash, updatedAt: "2026-02-01T08:00:00.000Z" });
    },
  },
  ...(["advanceCreationStep", "resetCreationStep"] as const).map(
    (op): Route => ({
      operation: op,
      handler: (req, app) => {
        const dep = deploymentOf(app, req);
        const steps = e14(app.store).creationStep;
        const at = op === "resetCreationStep" ? 0 : Math.min((steps.get(dep.id) ?? CREATION_STEPS.length - 1) + 1, CREATION_STEPS.length - 1);
        steps.set(dep.id, at);
        return ok({ deploymentId: dep.id, creationStep: CREATION_STEPS[at] });
      },
    }),
  ),
  {
    operation: "createDeployment",
    handler: (req, app) => {
      const f = readFields(
        {
          fields: {
            name: "string",
            cloudProvider: ["hosted", "aws", "gcp"],
            region: "string",
            creationMethod: ["upload", "hosted", "github", "ssh"],
            deployMode: ["git", "cli"],
          },
          required: ["name"],
        },
        req.body,
        true,
      );
      const dep = newDeployment(app, f);
      app.store.deployments.push(dep);
      return {
        status: 201,
        body: {
          id: dep.id,
          name: dep.name,
          created_at: dep.created_at,
          cloudProvider: dep.settings.cloudProvider,
          region: dep.settings.region,
          creationMethod: dep.settings.creationMethod,
          deployMode: dep.settings.deployMode,
        },
      };
    },
  },
  {
    operation: "deleteDeployment",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      if (!req.user.permissions.has("AuditLogManage")) throw new HttpError(403, "deleting a deployment needs an admin");
      app.store.deployments.splice(app.store.deployments.indexOf(dep), 1);
      for (const i of itemsOf(app, dep)) app.store.items.delete(i.id);
      // What the E14 families keep per deployment goes with it.
      const s = e14(app.store);
      for (const perDeployment of [s.files, s.devMode, s.creationStep, s.githubConnected]) perDeployment.delete(dep.id);
      return { status: 204 };
    },
  },
  { operation: "getTenantSettings", handler: (_req, app) => ok(e14(app.store).tenantSettings) },
  {
    operation: "updateTenantSettings",
    handler: (req, app) => {
      if (!req.user.permissions.has("AuditLogManage")) throw new HttpError(403, "tenant settings need an admin");
      const s = e14(app.store);
      Object.assign(s.tenantSettings, readFields(TENANT_SETTINGS, req.body, false));
      return ok(s.tenantSettings);
    },
  },
  { operation: "getGithubStatus", handler: () => ok({ installed: true, account: "example-org" }) },
  {
    operation: "listGithubInstallations",
    handler: (req, app) => listAnswer(app, [{ id: 4101, account: "example-org", accountType: "Organization" }], req.query),
  },
  {
    operation: "listGithubRepositories",
    handler: (req, app) => {
      if (req.params.installationId !== "4101") throw new HttpError(404, `installation ${req.params.installationId} not found`);
      return listAnswer(app, [{ owner: "example-org", name: "analytics-model", defaultBranch: "main", private: true }], req.query);
    },
  },
  {
    operation: "listGithubBranches",
    handler: (req, app) => {
      if (req.params.owner !== "example-org" || req.params.repo !== "analytics-model")
        throw new HttpError(404, `repository ${req.params.owner}/${req.params.repo} not found`);
      return listAnswer(
        app,
        ["main", "develop"].map((name) => ({ name })),
        req.query,
      );
    },
  },
  {
    operation: "getEmbedAccess",
    handler: (req, app) => {
      const wb = itemOf(app, deploymentOf(app, req), req.params.workbookId, "WORKBOOK");
      return ok({ workbookId: wb.id, items: embedAccessList(app, wb.id) });
    },
  },
  {
    operation: "setEmbedAccess",
    handler: (req, app) => {
      const wb = itemOf(app, deploymentOf(app, req), req.params.workbookId, "WORKBOOK");
      if (!atLeast(accessTo(app.store, req.user, wb), "manage")) throw new HttpError(403, "manage access to the workbook is required");
      const { tenantId, allEmbedUsers, action } = req.body ?? {};
      if (!EMBED_ACTIONS.includes(action)) throw new HttpError(400, `action must be one of ${EMBED_ACTIONS.join(", ")}`);
      if ((tenantId === undefined) === (allEmbedUsers !== true))
        throw new HttpError(400, "name one embed tenant (tenantId) or all embed users (allEmbedUsers: true)");
      if (tenantId !== undefined && (!Number.isSafeInteger(tenantId) || !recordsOf(app, tenantDef, {}).has(String(tenantId))))
        throw new HttpError(404, `embed tenant ${tenantId} not found`);
      const s = e14(app.store);
      if (!s.embedAccess.has(wb.id)) s.embedAccess.set(wb.id, new Map());
      s.embedAccess.get(wb.id)!.set(tenantId === undefined ? "*" : String(tenantId), action);
      return ok({ workbookId: wb.id, items: embedAccessList(app, wb.id) });
    },
  },
  {
    operation: "setDashboardEmbedding",
    handler: (req, app) => {
      const wb = publishedDashboard(app, req.params.publicId);
      if (typeof req.body?.allowEmbed !== "boolean") throw new HttpError(400, "allowEmbed must be a boolean");
      if (!atLeast(accessTo(app.store, req.user, wb), "manage")) throw new HttpError(403, "manage access to the workbook is required");
      wb.publishedDashboard.allowEmbed = req.body.allowEmbed;
      return ok({ publicId: req.params.publicId, allowEmbed: wb.publishedDashboard.allowEmbed });
    },
  },
  {
    operation: "runDashboardPython",
    handler: (req, app) => {
      const wb = publishedDashboard(app, req.params.publicId);
      const { reportId, filters } = req.body ?? {};
      if (!Number.isSafeInteger(reportId)) throw new HttpError(400, "reportId must be an integer");
      if (filters !== undefined && !Array.isArray(filters)) throw new HttpError(400, "filters must be an array");
      if (!wb.publishedDashboard.reportSnapshots.some((s: any) => s.reportId === reportId))
        throw new HttpError(404, `report ${reportId} is not on this dashboard`);
      return ok({ reportId, status: "succeeded", output: { columns: ["value"], rows: [[42]] } });
    },
  },
];
