import type { FastifyInstance } from "fastify";
import type { RouteOpts } from "../app.js";
import { caller, deployment, requireRole } from "../access.js";
import { cursorEnvelope, paginate } from "../pagination.js";
import { STD_ERRORS, cursorListResponse, cursorQuery as cq, dataOf, errorResponses, nul, params } from "../schemas.js";
import { HttpError, iso, notFound, sha } from "../util.js";

const STEPS = ["choose-provider", "connect-database", "configure-model", "deploy", "done"];
const CONTAINERS = ["INIT", "MAIN", "vector", "api-proxy", "server"];
const REGIONS = [
  { id: "aws-us-east-1", cloudProvider: "aws", name: "US East (N. Virginia)", location: "us-east-1", isDefault: true },
  { id: "aws-eu-central-1", cloudProvider: "aws", name: "EU (Frankfurt)", location: "eu-central-1", isDefault: false },
  { id: "aws-ap-southeast-2", cloudProvider: "aws", name: "Asia Pacific (Sydney)", location: "ap-southeast-2", isDefault: false },
  { id: "gcp-us-central1", cloudProvider: "gcp", name: "US Central (Iowa)", location: "us-central1", isDefault: false },
  { id: "gcp-europe-west1", cloudProvider: "gcp", name: "Europe West (Belgium)", location: "europe-west1", isDefault: false },
  { id: "hosted-global", cloudProvider: "hosted", name: "Hosted (global)", location: "global", isDefault: false },
];

const buildStatus = {
  type: "object",
  required: ["branchName", "status"],
  properties: {
    branchName: { type: "string" },
    status: { type: "string", enum: ["idle", "building", "deployed", "failed"] },
    lastHash: { type: "string" },
    updatedAt: { type: "string", format: "date-time" },
    environmentType: { type: nul("string") },
  },
};
const stepState = dataOf({
  type: "object",
  required: ["creationStep", "stepName", "steps"],
  properties: {
    creationStep: { type: "integer" },
    stepName: { type: "string" },
    steps: { type: "array", items: { type: "string" } },
    completed: { type: "boolean" },
  },
});

export async function opsRoutes(app: FastifyInstance, { store: s }: RouteOpts): Promise<void> {
  app.get(
    "/api/v1/deployments/:deploymentId/build-status",
    {
      schema: {
        tags: ["operations"],
        summary: "Build/deploy state of a branch",
        params: params(["deploymentId"]),
        querystring: { type: "object", properties: { branchName: { type: "string", description: "Default: the production branch" } } },
        response: { 200: dataOf(buildStatus), ...errorResponses(404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      const name = (req.query as { branchName?: string }).branchName;
      const b = s.branches.find((x) => x.deploymentId === d.id && (name ? x.name === name : x.kind === "production"));
      if (!b) throw notFound(`Branch ${name ?? "main"}`);
      const environmentType = b.kind === "production" ? "production" : b.kind === "personal" ? "development" : b.isStagingEnvironmentEnabled ? "staging" : null;
      return { data: { branchName: b.name, status: b.status, lastHash: b.lastHash, updatedAt: b.updatedAt, environmentType } };
    },
  );

  app.get(
    "/api/v1/deployments/:deploymentId/logs",
    {
      schema: {
        tags: ["operations"],
        summary: "Container logs",
        params: params(["deploymentId"]),
        querystring: {
          type: "object",
          properties: {
            source: { type: "string", enum: ["production", "dev"], default: "production" },
            container: { type: "string", enum: CONTAINERS },
            branchName: { type: "string" },
            since: { type: "string", format: "date-time" },
            ...cq,
          },
        },
        response: {
          200: cursorListResponse({
            type: "object",
            properties: {
              timestamp: { type: "string" },
              source: { type: "string" },
              container: { type: "string" },
              pod: { type: "string" },
              level: { type: "string" },
              message: { type: "string" },
            },
          }),
          ...errorResponses(400, 404, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      requireRole(caller(req), "developer", "Reading logs");
      const q = req.query as { source: string; container?: string; since?: string; first?: number; after?: string };
      const base = Date.UTC(2026, 10, 27, 6, 0, 0, 5);
      const lines = Array.from({ length: 40 }, (_, i) => ({
        timestamp: iso(base + i * 61_003),
        source: i % 4 === 0 ? "dev" : "production",
        container: CONTAINERS[i % CONTAINERS.length]!,
        pod: `d${d.id}-${i % 2 ? "api" : "refresh"}-7f9c${i % 3}`,
        level: i % 7 === 0 ? "warn" : "info",
        message: i % 7 === 0 ? "Slow query detected (2.3s)" : `Request ${i} completed`,
      })).filter((l) => l.source === q.source && (!q.container || l.container === q.container) && (!q.since || l.timestamp >= q.since));
      const { items, pageInfo, data } = cursorEnvelope(paginate(lines, q, `logs:${d.id}:${q.source}:${q.container ?? ""}`, true));
      return { items, pageInfo, data };
    },
  );

  app.get(
    "/api/v1/deployments/:deploymentId/pods",
    {
      schema: {
        tags: ["operations"],
        summary: "Pods of a deployment",
        params: params(["deploymentId"]),
        response: {
          200: dataOf({
            type: "array",
            items: {
              type: "object",
              properties: {
                name: { type: "string" },
                phase: { type: "string" },
                ready: { type: "boolean" },
                restarts: { type: "integer" },
                branch: { type: "string" },
                containers: { type: "array", items: { type: "string" } },
                startedAt: { type: "string" },
              },
            },
          }),
          ...errorResponses(404, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      return {
        data: s.branches
          .filter((b) => b.deploymentId === d.id && (b.kind !== "shared" || b.isStagingEnvironmentEnabled))
          .map((b, i) => ({
            name: `d${d.id}-${b.name}-${sha(b.name, 5)}`,
            phase: "Running",
            ready: true,
            restarts: i % 2,
            branch: b.name,
            containers: CONTAINERS,
            startedAt: b.updatedAt,
          })),
      };
    },
  );

  for (const action of ["advance", "reset"] as const) {
    app.post(
      `/api/v1/deployments/:deploymentId/creation-step/${action}`,
      {
        schema: {
          tags: ["operations"],
          summary: action === "advance" ? "Advance the setup wizard one step" : "Reset the setup wizard",
          params: params(["deploymentId"]),
          body: { type: "object", properties: {} },
          response: { 200: stepState, ...errorResponses(400, 404, ...STD_ERRORS) },
        },
      },
      async (req) => {
        const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
        requireRole(caller(req), "admin", "Driving the setup wizard");
        if (action === "reset") d.creationStep = 0;
        else if (d.creationStep >= STEPS.length - 1) throw new HttpError(400, "Setup wizard already completed", "wizard_completed");
        else d.creationStep += 1;
        return { data: { creationStep: d.creationStep, stepName: STEPS[d.creationStep]!, steps: STEPS, completed: d.creationStep === STEPS.length - 1 } };
      },
    );
  }

  app.get(
    "/api/v1/regions",
    {
      schema: {
        tags: ["operations"],
        summary: "Regions available to the tenant (the path with a trailing slash redirects here)",
        querystring: { type: "object", properties: { cloudProvider: { type: "string", enum: ["hosted", "aws", "gcp"] }, ...cq } },
        response: {
          200: cursorListResponse({
            type: "object",
            properties: {
              id: { type: "string" },
              cloudProvider: { type: "string" },
              name: { type: "string" },
              location: { type: "string" },
              isDefault: { type: "boolean" },
            },
          }),
          ...errorResponses(400, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const q = req.query as { cloudProvider?: string; first?: number; after?: string };
      const list = REGIONS.filter((r) => !q.cloudProvider || r.cloudProvider === q.cloudProvider);
      return cursorEnvelope(paginate(list, q, `regions:${q.cloudProvider ?? ""}`, true));
    },
  );
}
