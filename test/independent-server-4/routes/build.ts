import type { FastifyInstance } from "fastify";
import type { RouteOpts } from "../app.js";
import type { Branch, Deployment } from "../types.js";
import type { Store } from "../store.js";
import { IMAGE_REPO } from "../store.js";
import { caller, deployment, requireRole } from "../access.js";
import { cursorEnvelope, paginate } from "../pagination.js";
import { STD_ERRORS, cursorListResponse, cursorQuery as cq, dataOf, errorResponses, params, ref } from "../schemas.js";
import { HttpError, badRequest, iso, notFound, sha } from "../util.js";
import { deploymentBodyProps, deploymentOut } from "./deployments.js";

export const branchOut = (b: Branch) => ({
  id: b.id,
  name: b.name,
  parentBranch: b.parentBranch,
  lastHash: b.lastHash,
  isStagingEnvironmentEnabled: b.isStagingEnvironmentEnabled,
  kind: b.kind,
});
export function findBranch(s: Store, d: Deployment, name: string): Branch {
  const b = s.branches.find((x) => x.deploymentId === d.id && x.name === name);
  if (!b) throw notFound(`Branch ${name}`);
  return b;
}
const P = "/build/api/v1/deployments/:deploymentId";
const dp = params(["deploymentId"]);
const opResult = dataOf({
  type: "object",
  properties: {
    branchName: { type: "string" },
    lastHash: { type: "string" },
    message: { type: "string" },
    status: { type: "string" },
    mergedFrom: { type: "string" },
  },
  additionalProperties: false,
});

export async function buildRoutes(app: FastifyInstance, { store: s }: RouteOpts): Promise<void> {
  app.post(
    "/build/api/v1/deployments",
    {
      schema: {
        tags: ["build"],
        summary: "Create a deployment (asynchronous: 202 + Location)",
        body: {
          type: "object",
          required: ["name", "cloudProvider", "region"],
          additionalProperties: false,
          properties: { ...deploymentBodyProps, name: { type: "string", minLength: 1, maxLength: 120 } },
        },
        response: {
          202: { ...dataOf(ref("Deployment")), description: "Accepted; Location header points at the new deployment" },
          ...errorResponses(400, ...STD_ERRORS),
        },
      },
    },
    async (req, reply) => {
      const c = caller(req);
      requireRole(c, "admin", "Creating a deployment");
      const b = req.body as Record<string, unknown>;
      if ("image" in b) throw badRequest("The container image cannot be set directly", "image_not_settable");
      const channel = String(b.releaseChannel ?? "stable");
      const heads = s.versions.filter((v) => v.releaseChannel === channel);
      if (!heads.length) throw badRequest(`Unknown release channel ${channel}`, "invalid_channel");
      const latest = heads[heads.length - 1]!;
      const id = Math.max(...s.deployments.keys(), 100) + 1;
      const d: Deployment = {
        id,
        name: String(b.name),
        created_at: iso(),
        cloudProvider: String(b.cloudProvider).replace(/[<>]/g, ""),
        region: String(b.region),
        releaseChannel: channel,
        releaseChannelVersion: `${IMAGE_REPO}:v${latest.version}`,
        releaseChannelVersionHold: false,
        template: (b.template as string | null) ?? null,
        templateVariables: (b.templateVariables as Record<string, string>) ?? {},
        defaultLaunchpadViewGroup: null,
        launchpadTabs: [],
        creationMethod: String(b.creationMethod ?? "upload").replace(/[<>]/g, ""),
        deployMode: String(b.deployMode ?? "cli"),
        creationStep: 0,
        versionHistory: [latest.version],
        workbookLimit: 500,
        settings: { sqlApiEnabled: true, cacheRefreshMinutes: 60, aiEnabled: false, timezone: "UTC" },
        secrets: {},
        devModeBranches: [],
        githubRepository: null,
      };
      s.deployments.set(id, d);
      const bid = Math.max(0, ...s.branches.map((x) => x.id)) + 1;
      s.branches.push({
        id: bid,
        deploymentId: id,
        name: "main",
        parentBranch: "",
        lastHash: sha(`${id}/main`),
        kind: "production",
        ownerUserId: null,
        isStagingEnvironmentEnabled: false,
        status: "building",
        updatedAt: iso(),
      });
      s.files.set(`${id}:main`, new Map([["cube.js", "module.exports = {};\n"]]));
      s.envVars.set(id, []);
      s.addAudit("Deployment created", c.user.id, { deploymentId: id });
      return reply
        .code(202)
        .header("location", `/api/v1/deployments/${id}`)
        .send({ data: deploymentOut(d) });
    },
  );

  app.put(
    `${P}/branches/staging-environment`,
    {
      schema: {
        tags: ["build"],
        summary: "E4 Enable or disable the always-on staging environment of a shared branch",
        params: dp,
        body: {
          type: "object",
          required: ["enabled"],
          anyOf: [{ required: ["branchName"] }, { required: ["branchId"] }],
          properties: { enabled: { type: "boolean" }, branchName: { type: "string", minLength: 1 }, branchId: { type: "integer", minimum: 1 } },
        },
        response: { 200: dataOf(ref("Branch")), ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      requireRole(caller(req), "developer", "Toggling a staging environment");
      const b = req.body as { enabled: boolean; branchName?: string; branchId?: number };
      const byId = b.branchId !== undefined ? s.branches.find((x) => x.deploymentId === d.id && x.id === b.branchId) : undefined;
      const byName = b.branchName !== undefined ? s.branches.find((x) => x.deploymentId === d.id && x.name === b.branchName) : undefined;
      if (b.branchId !== undefined && !byId) throw notFound(`Branch ${b.branchId}`);
      if (b.branchName !== undefined && !byName) throw notFound(`Branch ${b.branchName}`);
      if (byId && byName && byId !== byName) throw badRequest("branchName and branchId refer to different branches", "branch_mismatch");
      const br = (byId ?? byName)!;
      if (b.enabled && br.kind !== "shared") {
        throw badRequest(
          br.kind === "production"
            ? "The production branch cannot have a staging environment"
            : "Personal development branches cannot have a staging environment",
          "branch_not_shared",
        );
      }
      br.isStagingEnvironmentEnabled = b.enabled;
      br.updatedAt = iso();
      return { data: branchOut(br) };
    },
  );

  app.get(
    `${P}/branches`,
    {
      schema: {
        tags: ["build"],
        summary: "List branches",
        params: dp,
        querystring: { type: "object", properties: cq },
        response: { 200: cursorListResponse(ref("Branch")), ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      const list = s.branches.filter((b) => b.deploymentId === d.id).map(branchOut);
      return cursorEnvelope(paginate(list, req.query as { first?: number; after?: string }, `branches:${d.id}`, true));
    },
  );

  app.post(
    `${P}/branches`,
    {
      schema: {
        tags: ["build"],
        summary: "Create a branch",
        params: dp,
        body: {
          type: "object",
          required: ["name"],
          properties: {
            name: { type: "string", pattern: "^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$" },
            parentBranch: { type: "string", default: "main" },
            kind: { type: "string", enum: ["shared", "personal"], default: "shared" },
          },
        },
        response: { 201: dataOf(ref("Branch")), ...errorResponses(404, 409, ...STD_ERRORS) },
      },
    },
    async (req, reply) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      const c = caller(req);
      requireRole(c, "developer", "Creating a branch");
      const b = req.body as { name: string; parentBranch: string; kind: "shared" | "personal" };
      const parent = findBranch(s, d, b.parentBranch);
      if (s.branches.some((x) => x.deploymentId === d.id && x.name === b.name)) throw new HttpError(409, `Branch ${b.name} already exists`, "conflict");
      const br: Branch = {
        id: Math.max(0, ...s.branches.map((x) => x.id)) + 1,
        deploymentId: d.id,
        name: b.name,
        parentBranch: parent.name,
        lastHash: parent.lastHash,
        kind: b.kind,
        ownerUserId: b.kind === "personal" ? c.user.id : null,
        isStagingEnvironmentEnabled: false,
        status: "idle",
        updatedAt: iso(),
      };
      s.branches.push(br);
      s.files.set(`${d.id}:${br.name}`, new Map(s.files.get(`${d.id}:${parent.name}`) ?? []));
      return reply
        .code(201)
        .header("location", `${req.url.split("?")[0]}?branchName=${encodeURIComponent(br.name)}`)
        .send({ data: branchOut(br) });
    },
  );

  app.delete(
    `${P}/branches`,
    {
      schema: {
        tags: ["build"],
        summary: "Delete a branch (children are re-parented to its parent)",
        params: dp,
        querystring: {
          type: "object",
          required: ["branchName"],
          properties: {
            branchName: { type: "string", minLength: 1 },
            removeOnUpstream: { type: "boolean", default: false },
          },
        },
        response: { 204: { type: "null", description: "Deleted" }, ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req, reply) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      requireRole(caller(req), "developer", "Deleting a branch");
      const q = req.query as { branchName: string; removeOnUpstream: boolean };
      const br = findBranch(s, d, q.branchName);
      if (br.kind === "production") throw badRequest("The production branch cannot be deleted", "production_branch");
      for (const child of s.branches) if (child.deploymentId === d.id && child.parentBranch === br.name) child.parentBranch = br.parentBranch;
      s.branches = s.branches.filter((x) => x !== br);
      s.files.delete(`${d.id}:${br.name}`);
      reply.header("x-upstream-ref-removed", String(q.removeOnUpstream && d.githubRepository !== null));
      return reply.code(204).send();
    },
  );

  const op = (
    path: string,
    summary: string,
    props: Record<string, unknown>,
    required: string[],
    run: (d: Deployment, b: Record<string, string>) => Record<string, unknown>,
  ) =>
    app.post(
      `${P}/${path}`,
      {
        schema: {
          tags: ["build"],
          summary,
          params: dp,
          body: { type: "object", required, properties: props },
          response: { 200: opResult, ...errorResponses(400, 404, 409, ...STD_ERRORS) },
        },
      },
      async (req) => {
        const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
        requireRole(caller(req), "developer", summary);
        return { data: run(d, req.body as Record<string, string>) };
      },
    );
  const str = { type: "string", minLength: 1 };
  op(
    "commit",
    "Commit dev-mode changes of a branch",
    { branchName: str, message: { type: "string", minLength: 1, maxLength: 500 } },
    ["branchName", "message"],
    (d, b) => {
      const br = findBranch(s, d, b.branchName!);
      if (!d.devModeBranches.includes(br.name)) throw badRequest(`Branch ${br.name} is not in dev mode`, "not_in_dev_mode");
      br.lastHash = sha(`${br.lastHash}:${b.message}:${Date.now()}`);
      br.updatedAt = iso();
      return { branchName: br.name, lastHash: br.lastHash, message: b.message!, status: "committed" };
    },
  );
  op("pull", "Pull the upstream into a branch", { branchName: str }, ["branchName"], (d, b) => {
    const br = findBranch(s, d, b.branchName!);
    return { branchName: br.name, lastHash: br.lastHash, status: "up-to-date" };
  });
  const merge = (d: Deployment, source: string, target: string) => {
    const from = findBranch(s, d, source);
    const to = findBranch(s, d, target);
    if (from === to) throw badRequest("Cannot merge a branch into itself", "same_branch");
    to.lastHash = sha(`${to.lastHash}+${from.lastHash}`);
    to.updatedAt = iso();
    to.status = to.kind === "production" ? "building" : to.status;
    s.files.set(`${d.id}:${to.name}`, new Map(s.files.get(`${d.id}:${from.name}`) ?? []));
    return { branchName: to.name, lastHash: to.lastHash, status: "merged", mergedFrom: from.name };
  };
  op("merge", "Merge one branch into another", { sourceBranch: str, targetBranch: str }, ["sourceBranch", "targetBranch"], (d, b) =>
    merge(d, b.sourceBranch!, b.targetBranch!),
  );
  op("merge-to-default", "Merge a branch into the production branch", { branchName: str }, ["branchName"], (d, b) => {
    const prod = s.branches.find((x) => x.deploymentId === d.id && x.kind === "production")!;
    return merge(d, b.branchName!, prod.name);
  });

  app.post(
    `${P}/github/connect`,
    {
      schema: {
        tags: ["build"],
        summary: "Connect the deployment to a GitHub repository",
        params: dp,
        body: {
          type: "object",
          required: ["repository"],
          properties: {
            repository: { type: "string", pattern: "^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$" },
            installationId: { type: "integer" },
            branch: { type: "string", default: "main" },
          },
        },
        response: {
          200: dataOf({
            type: "object",
            properties: { repository: { type: "string" }, branch: { type: "string" }, connected: { type: "boolean" }, deployMode: { type: "string" } },
          }),
          ...errorResponses(404, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      requireRole(caller(req), "admin", "Connecting a repository");
      const b = req.body as { repository: string; branch: string };
      d.githubRepository = b.repository;
      d.creationMethod = "github";
      d.deployMode = "git";
      return { data: { repository: b.repository, branch: b.branch, connected: true, deployMode: d.deployMode } };
    },
  );

  app.post(
    `${P}/dev-mode`,
    {
      schema: {
        tags: ["build"],
        summary: "Start dev mode (creates the caller's personal branch when missing)",
        params: dp,
        body: { type: "object", properties: { branchName: { type: "string", minLength: 1 } } },
        response: {
          200: dataOf({ type: "object", properties: { branchName: { type: "string" }, devMode: { type: "boolean" } } }),
          ...errorResponses(400, 404, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      const c = caller(req);
      requireRole(c, "developer", "Dev mode");
      const name = (req.body as { branchName?: string }).branchName ?? `dev-${(c.user.firstName ?? String(c.user.id)).toLowerCase()}`;
      let br = s.branches.find((x) => x.deploymentId === d.id && x.name === name);
      if (br?.kind === "production") throw badRequest("Dev mode is not available on the production branch", "production_branch");
      if (!br) {
        br = {
          id: Math.max(0, ...s.branches.map((x) => x.id)) + 1,
          deploymentId: d.id,
          name,
          parentBranch: "main",
          lastHash: findBranch(s, d, "main").lastHash,
          kind: "personal",
          ownerUserId: c.user.id,
          isStagingEnvironmentEnabled: false,
          status: "idle",
          updatedAt: iso(),
        };
        s.branches.push(br);
        s.files.set(`${d.id}:${name}`, new Map(s.files.get(`${d.id}:main`) ?? []));
      }
      if (!d.devModeBranches.includes(name)) d.devModeBranches.push(name);
      return { data: { branchName: name, devMode: true } };
    },
  );

  app.delete(
    `${P}/dev-mode`,
    {
      schema: {
        tags: ["build"],
        summary: "Stop dev mode on a branch",
        params: dp,
        querystring: { type: "object", required: ["branchName"], properties: { branchName: { type: "string", minLength: 1 } } },
        response: { 204: { type: "null", description: "Stopped" }, ...errorResponses(404, ...STD_ERRORS) },
      },
    },
    async (req, reply) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      requireRole(caller(req), "developer", "Dev mode");
      const name = (req.query as { branchName: string }).branchName;
      if (!d.devModeBranches.includes(name)) throw notFound(`Dev mode session on ${name}`);
      d.devModeBranches = d.devModeBranches.filter((x) => x !== name);
      return reply.code(204).send();
    },
  );
}
