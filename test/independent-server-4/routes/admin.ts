import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { RouteOpts } from "../app.js";
import { caller, requirePermission, requireRole } from "../access.js";
import { crud } from "../crud.js";
import { STD_ERRORS, anyObject, dataOf, errorResponses, nul, params } from "../schemas.js";
import { HttpError, badRequest, csvCell, iso, isPlainObject, notFound } from "../util.js";

const CSV_COLUMNS = ["id", "timestamp", "eventName", "userEmail", "userId", "ipAddress", "data"] as const;
const REPOS: Record<number, Array<{ owner: string; name: string; private: boolean; defaultBranch: string }>> = {
  7001: [
    { owner: "acme", name: "analytics-model", private: true, defaultBranch: "main" },
    { owner: "acme", name: "dbt-project", private: true, defaultBranch: "main" },
  ],
  7002: [{ owner: "acme-labs", name: "sandbox-model", private: false, defaultBranch: "develop" }],
};

export async function adminRoutes(app: FastifyInstance, { store: s }: RouteOpts): Promise<void> {
  app.get(
    "/api/v1/app-config",
    {
      schema: {
        tags: ["settings"],
        summary: "App configuration",
        response: {
          200: dataOf({
            type: "object",
            required: ["appTheme", "applyThemeGlobally", "creatorMode", "embedding", "sheetsUi", "timezoneSettings"],
            properties: {
              appTheme: anyObject,
              applyThemeGlobally: { type: "boolean" },
              creatorMode: { type: "boolean" },
              embedding: anyObject,
              sheetsUi: anyObject,
              timezoneSettings: anyObject,
            },
          }),
          ...errorResponses(...STD_ERRORS),
        },
      },
    },
    async (req) => ({ data: { ...s.appConfig, creatorMode: caller(req).key.creatorMode } }),
  );

  app.get(
    "/api/v1/tenant/settings",
    {
      schema: { tags: ["settings"], summary: "Tenant settings", response: { 200: dataOf(anyObject), ...errorResponses(...STD_ERRORS) } },
    },
    async () => ({ data: s.tenantSettings }),
  );
  app.put(
    "/api/v1/tenant/settings",
    {
      schema: {
        tags: ["settings"],
        summary: "Update tenant settings (merged key by key; plan and auditLogEnabled are read-only)",
        body: {
          type: "object",
          minProperties: 1,
          properties: {
            name: { type: "string", minLength: 1 },
            defaultTimezone: { type: "string" },
            allowedEmailDomains: { type: "array", items: { type: "string" } },
            sessionTimeoutMinutes: { type: "integer", minimum: 5, maximum: 10080 },
          },
          additionalProperties: false,
        },
        response: { 200: dataOf(anyObject), ...errorResponses(...STD_ERRORS) },
      },
    },
    async (req) => {
      requireRole(caller(req), "admin", "Tenant settings");
      Object.assign(s.tenantSettings, req.body as object);
      return { data: s.tenantSettings };
    },
  );

  app.get(
    "/api/v1/audit-logs/export",
    {
      schema: {
        tags: ["audit"],
        summary: "E7 Export audit log events as CSV (attachment)",
        querystring: {
          type: "object",
          properties: {
            start: { type: "string", format: "date" },
            end: { type: "string", format: "date", description: "Inclusive" },
            search: { type: "string", description: "Case-insensitive substring over event data" },
            eventName: { type: "string" },
            userEmail: { type: "string" },
          },
        },
        response: {
          200: { description: `CSV with header ${CSV_COLUMNS.join(",")}`, content: { "text/csv": { schema: { type: "string" } } } },
          ...errorResponses(400, ...STD_ERRORS),
        },
      },
    },
    async (req, reply) => {
      const c = caller(req);
      if (!c.key.auditFeature) throw new HttpError(403, "The audit log feature is not enabled on this plan", "feature_not_enabled");
      requirePermission(c, "AuditLogManage");
      const q = req.query as { start?: string; end?: string; search?: string; eventName?: string; userEmail?: string };
      if (q.start && q.end && q.start > q.end) throw badRequest("start must not be after end", "invalid_range");
      const needle = q.search?.toLowerCase();
      const rows = s.audit
        .filter((e) => (!q.start || e.timestamp.slice(0, 10) >= q.start) && (!q.end || e.timestamp.slice(0, 10) <= q.end))
        .filter((e) => !q.eventName || e.eventName.toLowerCase() === q.eventName.toLowerCase())
        .filter((e) => !q.userEmail || (e.userEmail ?? "").toLowerCase() === q.userEmail.toLowerCase())
        .filter((e) => !needle || JSON.stringify(e.data).toLowerCase().includes(needle))
        .sort((a, b) => (a.timestamp < b.timestamp ? -1 : 1));
      s.addAudit("Audit log exported", c.user.id, { filters: q, rows: rows.length });
      const lines = (function* () {
        yield `${CSV_COLUMNS.join(",")}\r\n`;
        for (const e of rows) yield `${CSV_COLUMNS.map((k) => csvCell(e[k])).join(",")}\r\n`;
      })();
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="audit-log-${iso().slice(0, 10)}.csv"`)
        .send(Readable.from(lines));
    },
  );

  const secretProps = { name: { type: "string", minLength: 1 } };
  crud(app, s, {
    base: "/api/v1/oauth-integrations",
    idParam: "integrationId",
    coll: "oauth-integrations",
    tag: "integrations",
    noun: "OAuth integration",
    props: {
      ...secretProps,
      provider: { type: "string", enum: ["google", "microsoft", "salesforce", "snowflake", "generic"] },
      clientId: { type: "string" },
      authorizeUrl: { type: "string", format: "uri" },
      tokenUrl: { type: "string", format: "uri" },
      scopes: { type: "array", items: { type: "string" } },
    },
    required: ["name", "provider", "clientId"],
    readRole: "developer",
  });
  crud(app, s, {
    base: "/api/v1/user-oauth-tokens",
    idParam: "tokenId",
    coll: "user-oauth-tokens",
    tag: "integrations",
    noun: "user OAuth token",
    props: { integrationId: { type: "string" }, scopes: { type: "array", items: { type: "string" } }, expiresAt: { type: nul("string"), format: "date-time" } },
    required: ["integrationId"],
    writeRole: "viewer",
    onCreate: (rec, req) => {
      if (!s.collection("oauth-integrations").has(String(rec.integrationId))) throw notFound(`OAuth integration ${String(rec.integrationId)}`);
      rec.userId = caller(req).user.id;
    },
  });
  crud(app, s, {
    base: "/api/v1/oidc-token-configs",
    idParam: "configId",
    coll: "oidc-token-configs",
    tag: "integrations",
    noun: "OIDC token config",
    props: {
      name: { type: "string", minLength: 1 },
      issuer: { type: "string", format: "uri" },
      audience: { type: "string" },
      claimsMapping: { type: "object", additionalProperties: { type: "string" } },
    },
    required: ["name", "issuer"],
    readRole: "developer",
  });

  app.get(
    "/api/v1/github/status",
    {
      schema: {
        tags: ["github"],
        summary: "GitHub App connection status",
        response: {
          200: dataOf({
            type: "object",
            properties: {
              connected: { type: "boolean" },
              installations: { type: "integer" },
              account: { type: nul("string") },
            },
          }),
          ...errorResponses(...STD_ERRORS),
        },
      },
    },
    async () => ({ data: { connected: true, installations: Object.keys(REPOS).length, account: "acme" } }),
  );
  app.get(
    "/api/v1/github/installations",
    {
      schema: {
        tags: ["github"],
        summary: "GitHub App installations",
        response: {
          200: dataOf({
            type: "array",
            items: {
              type: "object",
              properties: {
                id: { type: "integer" },
                account: { type: "string" },
                repositorySelection: { type: "string" },
              },
            },
          }),
          ...errorResponses(...STD_ERRORS),
        },
      },
    },
    async () => ({
      data: [
        { id: 7001, account: "acme", repositorySelection: "selected" },
        { id: 7002, account: "acme-labs", repositorySelection: "all" },
      ],
    }),
  );
  app.get(
    "/api/v1/github/installations/:installationId/repositories",
    {
      schema: {
        tags: ["github"],
        summary: "Repositories of an installation",
        params: params(["installationId"]),
        response: {
          200: dataOf({
            type: "array",
            items: {
              type: "object",
              properties: {
                owner: { type: "string" },
                name: { type: "string" },
                fullName: { type: "string" },
                private: { type: "boolean" },
                defaultBranch: { type: "string" },
              },
            },
          }),
          ...errorResponses(404, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const id = (req.params as { installationId: number }).installationId;
      const repos = REPOS[id];
      if (!repos) throw notFound(`Installation ${id}`);
      return { data: repos.map((r) => ({ ...r, fullName: `${r.owner}/${r.name}` })) };
    },
  );
  app.get(
    "/api/v1/github/repositories/:owner/:repo/branches",
    {
      schema: {
        tags: ["github"],
        summary: "Branches of a repository",
        params: params([], ["owner", "repo"]),
        response: {
          200: dataOf({
            type: "array",
            items: { type: "object", properties: { name: { type: "string" }, sha: { type: "string" }, protected: { type: "boolean" } } },
          }),
          ...errorResponses(404, ...STD_ERRORS),
        },
      },
    },
    async (req) => {
      const { owner, repo } = req.params as { owner: string; repo: string };
      const r = Object.values(REPOS)
        .flat()
        .find((x) => x.owner === owner && x.name === repo);
      if (!r) throw notFound(`Repository ${owner}/${repo}`);
      return { data: [r.defaultBranch, "feature/forecast", "release-2026"].map((name, i) => ({ name, sha: `${i}`.repeat(40), protected: i === 0 })) };
    },
  );
  void isPlainObject;
}
