import type { FastifyInstance } from "fastify";
import type { RouteOpts } from "../app.js";
import type { Store } from "../store.js";
import { IMAGE_REPO } from "../store.js";
import type { Deployment } from "../types.js";
import { caller, deployment, requireRole } from "../access.js";
import { cursorEnvelope, paginate, OFFSET_MAX } from "../pagination.js";
import { STD_ERRORS, anyObject, cursorListResponse, cursorQuery as cq, dataOf, errorResponses, nul, params, ref } from "../schemas.js";
import { HttpError, badRequest, iso, isPlainObject, seededUuid, signJwt } from "../util.js";

const SECRET_MARKERS = ["PASS", "SECRET", "TOKEN", "KEY", "CREDENTIAL"];
export const isSecretName = (n: string): boolean => SECRET_MARKERS.some((m) => n.toUpperCase().includes(m));
const offsetQuery = {
  offset: { type: "integer", minimum: 0, description: "Default 0" },
  limit: { type: "integer", minimum: 1, maximum: OFFSET_MAX, description: "Default 20, maximum 100" },
};

export function deploymentOut(d: Deployment): Record<string, unknown> {
  const version = d.releaseChannelVersion.split(":v").pop() ?? "";
  const { versionHistory: _h, workbookLimit: _w, settings: _s, secrets: _x, devModeBranches: _d, githubRepository: _g, ...rest } = d;
  return { ...rest, id: String(d.id), version, image: `${IMAGE_REPO}:v${version}` };
}

export function environmentsOf(s: Store, d: Deployment): Array<Record<string, unknown>> {
  const host = `${d.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.analytics.example`;
  const out: Array<Record<string, unknown>> = [];
  for (const b of s.branches.filter((x) => x.deploymentId === d.id)) {
    let type: string | null = null;
    if (b.kind === "production") type = "production";
    else if (b.kind === "personal") type = "development";
    else if (b.isStagingEnvironmentEnabled) type = "staging";
    if (!type) continue;
    const sub = type === "production" ? host : `${b.name}--${host}`;
    const owner = s.users.get(b.ownerUserId ?? 1)?.email ?? "";
    out.push({
      id: seededUuid(`env-${d.id}-${b.id}`),
      name: type === "production" ? "Production" : b.name,
      type,
      branch: b.name,
      user: owner,
      api_credentials: [
        { type: "rest", version: 1, database: "analytics", host: sub, port: 443, url: `https://${sub}/cubejs-api/v1` },
        { type: "sql", version: 1, database: "analytics", host: `sql.${sub}`, port: 5432, url: `postgres://sql.${sub}:5432/analytics` },
      ],
    });
  }
  return out;
}

export function versionsOf(s: Store, d: Deployment): Array<Record<string, unknown>> {
  const current = d.releaseChannelVersion;
  const heads = new Map<string, string>();
  for (const v of s.versions) {
    const h = heads.get(v.releaseChannel);
    if (!h || cmp(v.version, h) > 0) heads.set(v.releaseChannel, v.version);
  }
  return s.versions
    .filter((v) => heads.get(v.releaseChannel) === v.version || d.versionHistory.includes(v.version) || v.releaseChannelVersion === current)
    .map((v) => ({ ...v, isLatestInChannel: heads.get(v.releaseChannel) === v.version, isCurrent: v.releaseChannelVersion === current }))
    .sort((a, b) => a.releaseChannel.localeCompare(b.releaseChannel) || cmp(b.version, a.version));
}

function cmp(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

const ENUM_PROVIDER = ["hosted", "<hosted>", "aws", "gcp"];
const ENUM_CREATION = ["upload", "hosted", "<hosted>", "github", "ssh"];
export const deploymentBodyProps = {
  name: { type: "string", minLength: 1, maxLength: 120 },
  cloudProvider: { type: "string", enum: ENUM_PROVIDER },
  region: { type: "string", minLength: 1 },
  releaseChannel: { type: "string", minLength: 1 },
  releaseChannelVersion: { type: "string", description: "1.7.20, v1.7.20 or the full image reference; must be listed by /versions" },
  releaseChannelVersionHold: { type: "boolean" },
  template: { type: nul("string") },
  templateVariables: { type: "object", additionalProperties: { type: nul("string") }, description: "Merged key by key; null removes a key" },
  defaultLaunchpadViewGroup: { type: nul("string") },
  launchpadTabs: { type: "array", items: {} },
  creationMethod: { type: "string", enum: ENUM_CREATION },
  deployMode: { type: "string", enum: ["git", "cli"] },
  image: { type: "string", description: "Not settable: always rejected with 400 (resolved from the version)." },
};

export async function deploymentRoutes(app: FastifyInstance, { store: s }: RouteOpts): Promise<void> {
  app.get(
    "/api/v1/deployments",
    {
      schema: {
        tags: ["deployments"],
        summary: "E1 List deployments",
        querystring: { type: "object", properties: offsetQuery },
        response: {
          200: {
            type: "object",
            required: ["data", "pagination"],
            properties: {
              data: { type: "object", properties: { deployments: { type: "array", items: ref("Deployment") } } },
              pagination: ref("OffsetPagination"),
            },
          },
          ...errorResponses(400, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const q = req.query as { offset?: number; limit?: number };
      const all = [...s.deployments.values()].sort((a, b) => a.id - b.id).map(deploymentOut);
      const p = paginate(all, q, "deployments");
      return { data: { deployments: p.items }, pagination: p.pagination };
    },
  );

  app.get(
    "/api/v1/deployments/:deploymentId",
    {
      schema: {
        tags: ["deployments"],
        summary: "Get a deployment",
        params: params(["deploymentId"]),
        response: { 200: dataOf(ref("Deployment")), ...errorResponses(404, ...STD_ERRORS) },
      },
    },
    async (req) => ({ data: deploymentOut(deployment(s, (req.params as { deploymentId: number }).deploymentId)) }),
  );

  app.get(
    "/api/v1/deployments/:deploymentId/environments",
    {
      schema: {
        tags: ["deployments"],
        summary: "E2 List environments",
        params: params(["deploymentId"]),
        querystring: { type: "object", properties: { type: { type: "string", enum: ["production", "staging", "development"] }, ...offsetQuery, ...cq } },
        response: { 200: cursorListResponse(ref("Environment")), ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const q = req.query as { type?: string; offset?: number; limit?: number; first?: number; after?: string };
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      const envs = environmentsOf(s, d).filter((e) => !q.type || e.type === q.type);
      const p = paginate(envs, q, `envs:${d.id}:${q.type ?? ""}`);
      const { count: _c, ...env } = cursorEnvelope(p);
      return env;
    },
  );

  app.post(
    "/api/v1/deployments/:deploymentId/environments/:environmentId/tokens-for-meta-sync",
    {
      schema: {
        tags: ["deployments"],
        summary: "E3 Create a metadata-only token",
        params: params(["deploymentId"], ["environmentId"]),
        body: {
          type: "object",
          required: ["security_context"],
          properties: {
            security_context: { type: "object", additionalProperties: true },
            expires_in: { type: "number", exclusiveMinimum: 0, maximum: 2592000, default: 86400, description: "Seconds (default 86400, max 30 days)" },
          },
        },
        response: {
          200: dataOf({
            type: "object",
            required: ["token", "created_at", "expires_at"],
            properties: {
              token: { type: "string" },
              created_at: { type: "string", format: "date-time" },
              expires_at: { type: "string", format: "date-time" },
            },
          }),
          ...errorResponses(404, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const { deploymentId, environmentId } = req.params as { deploymentId: number; environmentId: string };
      const body = req.body as { security_context: Record<string, unknown>; expires_in: number };
      const d = deployment(s, deploymentId);
      requireRole(caller(req), "developer", "Creating metadata tokens");
      if (!environmentsOf(s, d).some((e) => e.id === environmentId)) throw new HttpError(404, `Environment ${environmentId} not found`, "not_found");
      const now = Date.now();
      const exp = now + Math.round(body.expires_in * 1000);
      const token = signJwt(
        { scope: "meta", deploymentId, environmentId, securityContext: body.security_context, iat: Math.floor(now / 1000), exp: Math.floor(exp / 1000) },
        s.jwtSecret,
      );
      return { data: { token, created_at: iso(now), expires_at: iso(exp) } };
    },
  );

  app.get(
    "/api/v1/deployments/:deploymentId/versions",
    {
      schema: {
        tags: ["deployments"],
        summary: "E5 List deployment versions",
        params: params(["deploymentId"]),
        response: { 200: dataOf({ type: "array", items: ref("DeploymentVersion") }), ...errorResponses(404, ...STD_ERRORS) },
      },
    },
    async (req) => ({ data: versionsOf(s, deployment(s, (req.params as { deploymentId: number }).deploymentId)) }),
  );

  app.put(
    "/api/v1/deployments/:deploymentId",
    {
      schema: {
        tags: ["deployments"],
        summary: "E6 Update a deployment (partial merge)",
        params: params(["deploymentId"]),
        body: { type: "object", additionalProperties: false, properties: deploymentBodyProps },
        response: { 200: dataOf(ref("Deployment")), ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      requireRole(caller(req), "admin", "Updating a deployment");
      const b = req.body as Record<string, unknown>;
      if ("image" in b) throw badRequest("The container image is resolved from releaseChannelVersion and cannot be set", "image_not_settable");
      const listed = versionsOf(s, d);
      let target: Record<string, unknown> | undefined;
      if (typeof b.releaseChannelVersion === "string") {
        const raw = b.releaseChannelVersion.trim();
        target = listed.find((v) => v.version === raw || `v${String(v.version)}` === raw || v.releaseChannelVersion === raw);
        if (!target) throw badRequest(`releaseChannelVersion ${raw} is not one of the versions listed for this deployment`, "invalid_version");
        if (typeof b.releaseChannel === "string" && b.releaseChannel !== target.releaseChannel) {
          throw badRequest(`Version ${String(target.version)} is not in release channel ${b.releaseChannel}`, "channel_mismatch");
        }
      } else if (typeof b.releaseChannel === "string") {
        target = listed.find((v) => v.releaseChannel === b.releaseChannel && v.isLatestInChannel);
        if (!target) throw badRequest(`Unknown release channel ${b.releaseChannel}`, "invalid_channel");
      }
      if (target) {
        d.releaseChannel = String(target.releaseChannel);
        d.releaseChannelVersion = String(target.releaseChannelVersion);
      }
      if (target && !d.versionHistory.includes(String(target.version))) d.versionHistory.push(String(target.version));
      const simple = [
        "name",
        "cloudProvider",
        "region",
        "releaseChannelVersionHold",
        "template",
        "defaultLaunchpadViewGroup",
        "launchpadTabs",
        "creationMethod",
        "deployMode",
      ] as const;
      for (const k of simple) if (k in b) (d as unknown as Record<string, unknown>)[k] = b[k];
      if (isPlainObject(b.templateVariables)) {
        for (const [k, v] of Object.entries(b.templateVariables)) {
          if (v === null) delete d.templateVariables[k];
          else d.templateVariables[k] = String(v);
        }
      }
      s.addAudit("Deployment updated", caller(req).user.id, { deploymentId: d.id, fields: Object.keys(b) });
      return { data: deploymentOut(d) };
    },
  );

  app.delete(
    "/api/v1/deployments/:deploymentId",
    {
      schema: {
        tags: ["deployments"],
        summary: "Delete a deployment",
        params: params(["deploymentId"]),
        response: { 204: { type: "null", description: "Deleted" }, ...errorResponses(404, ...STD_ERRORS) },
      },
    },
    async (req, reply) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      requireRole(caller(req), "admin", "Deleting a deployment");
      s.deployments.delete(d.id);
      s.branches = s.branches.filter((b) => b.deploymentId !== d.id);
      for (const [id, it] of s.items) if (it.deploymentId === d.id) s.items.delete(id);
      s.addAudit("Deployment deleted", caller(req).user.id, { deploymentId: d.id });
      return reply.code(204).send();
    },
  );

  app.get(
    "/api/v1/deployments/:deploymentId/settings",
    {
      schema: {
        tags: ["deployments"],
        summary: "All deployment settings, secrets excluded",
        params: params(["deploymentId"]),
        response: { 200: dataOf(anyObject), ...errorResponses(404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      return { data: { ...deploymentOut(d), ...d.settings, workbookLimit: d.workbookLimit } };
    },
  );

  const envVarsOut = (id: number) => (s.envVars.get(id) ?? []).map((v) => ({ name: v.name, value: isSecretName(v.name) ? "[ENCRYPTED]" : v.value }));
  app.get(
    "/api/v1/deployments/:deploymentId/env-vars",
    {
      schema: {
        tags: ["deployments"],
        summary: "E13 List environment variables",
        params: params(["deploymentId"]),
        querystring: { type: "object", properties: cq },
        response: { 200: cursorListResponse(ref("EnvVar")), ...errorResponses(400, 404, ...STD_ERRORS) },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      const q = req.query as { first?: number; after?: string };
      const { items, pageInfo, data } = cursorEnvelope(paginate(envVarsOut(d.id), q, `env-vars:${d.id}`, true));
      return { items, pageInfo, data };
    },
  );

  app.put(
    "/api/v1/deployments/:deploymentId/env-vars",
    {
      schema: {
        tags: ["deployments"],
        summary: "Set environment variables (merge by name; value null deletes)",
        params: params(["deploymentId"]),
        body: {
          type: "object",
          required: ["variables"],
          properties: {
            variables: {
              type: "array",
              maxItems: 200,
              items: {
                type: "object",
                required: ["name", "value"],
                properties: {
                  name: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
                  value: { type: nul("string") },
                },
              },
            },
            replace: { type: "boolean", default: false, description: "true replaces the whole set" },
          },
        },
        response: {
          200: { type: "object", properties: { items: { type: "array", items: ref("EnvVar") }, data: { type: "array", items: ref("EnvVar") } } },
          ...errorResponses(404, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const d = deployment(s, (req.params as { deploymentId: number }).deploymentId);
      const c = caller(req);
      requireRole(c, "developer", "Setting environment variables");
      const b = req.body as { variables: Array<{ name: string; value: string | null }>; replace: boolean };
      if (b.variables.some((v) => isSecretName(v.name)) && !c.key.permissions.includes("SecretsManage")) {
        throw new HttpError(403, "Permission SecretsManage required to set secret-named variables", "forbidden");
      }
      const map = new Map(b.replace ? [] : (s.envVars.get(d.id) ?? []).map((v) => [v.name, v.value] as const));
      for (const v of b.variables) {
        if (v.value === null) map.delete(v.name);
        else map.set(v.name, v.value);
      }
      s.envVars.set(
        d.id,
        [...map].map(([name, value]) => ({ name, value })).sort((x, y) => x.name.localeCompare(y.name)),
      );
      s.addAudit("Env vars updated", c.user.id, { deploymentId: d.id, names: b.variables.map((v) => v.name) });
      const out = envVarsOut(d.id);
      return { items: out, data: out };
    },
  );
}
