import $RefParser from "@apidevtools/json-schema-ref-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import m from "ajv-formats";
import type { FormatsPlugin } from "ajv-formats";
import { afterEach, describe, expect, it } from "vitest";
import { startReference, type RunningReference } from "../reference/server.js";

const addFormats = ((m as unknown as { default?: FormatsPlugin }).default ?? m) as unknown as FormatsPlugin;

/**
 * The reference's served document is truthful about E14: a tour that calls every E14 operation it
 * documents (creates first, then reads, updates, deletes; ids from the creates' OpenAPI links) gets
 * a documented 2xx whose body matches the documented schema. Seed values are fine here: this tests
 * the reference, not the suite.
 */
type Op = { method: string; path: string; op: any };

const BODIES: Record<string, unknown> = {
  createNotification: { name: "cf-weekly", schedule: "0 9 * * 1", filters: [{ member: "orders.status", operator: "is_not_empty" }], timeGrain: "week" },
  createEmbedGroupMember: { embedUserId: "{embedUserId}" },
  createUserOauthToken: { integrationId: "{integrationId}", accessToken: "tok" },
  createUserAttribute: { name: "cf-attr", type: "string_array" },
  bulkUpdateUsers: { action: "DEACTIVATE", userIds: ["{userId}", 999999] },
  setUserAttributeValues: { values: [{ attributeId: "{attributeId}", value: ["a", "b"] }] },
  createFolder: { name: "cf-folder" },
  bulkDeleteWorkspaceItems: { items: [{ type: "FOLDER", id: 999999 }] },
  connectReportToWorkbook: { externalWorkbookId: "xl-1", sheetName: "Sheet1", anchorCell: "B2" },
  refreshReportPlacement: { externalWorkbookId: "xl-1", sheetName: "Sheet1", anchorCell: "B2" },
  upsertReportByPublicId: { name: "cf-report" },
  setEmbedAccess: { tenantId: "{tenantId}", action: "none" },
  setSignedEmbedding: { allowEmbed: true },
  runDashboardPython: { reportId: "{dashboardReportId}" },
  setEnvVars: { env_variables: [{ name: "CF_TOUR", value: "1" }] },
  createDeployment: { name: "cf-deployment" },
  updateTenantSettings: { defaultTimezone: "Europe/Berlin" },
  writeDataModelFiles: { branchName: "cf-tour", files: [{ fileName: "model/cubes/cf.yml", content: "cubes: [" }] },
  renameDataModelFile: { branchName: "cf-tour", from: "model/cubes/cf.yml", to: "model/cubes/cf2.yml" },
  startUpload: { branchName: "cf-tour" },
  uploadFile: { uploadId: "{uploadId}", fileName: "model/cubes/up.yml", content: "cubes: []" },
  finishUpload: { uploadId: "{uploadId}" },
  startDevMode: { branchName: "cf-tour" },
  createBranch: { name: "cf-tour", activate: true },
  commitBranch: { branchName: "cf-tour", message: "tour" },
  pullBranch: { branchName: "cf-tour" },
  mergeBranch: { branchName: "cf-tour" },
  mergeBranchToDefault: { branchName: "cf-tour" },
  connectGithub: { owner: "example-org", repo: "analytics-model" },
  startDbtSync: {},
  updateUser: { lastName: "Tour" },
  createUser: { email: "cf-tour@example.com" },
};
const QUERIES: Record<string, Record<string, string>> = {
  deleteDataModelFile: { branchName: "cf-tour", fileName: "model/cubes/cf2.yml" },
  disconnectReportFromWorkbook: { externalWorkbookId: "xl-1", sheetName: "Sheet1", anchorCell: "B2" },
  stopDevMode: { branchName: "cf-tour" },
  deleteBranch: { branchName: "cf-tour" },
};
/** Read after everything else, for the state they need (a finished job). */
const LATE = new Set(["getDbtSyncResult", "getDbtSyncLogs"]);

let ref: RunningReference;
let ops: Op[];
let ctx: Record<string, string | number> = {};

async function call(method: string, path: string, body?: unknown, query?: Record<string, string>) {
  const url = new URL(ref.url + path);
  for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${ref.seeded.tokens.primary}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A body of the required fields of a schema, each a plain value of its type (an id from the tour where one is named so). */
function synthesize(schema: any): unknown {
  const required: string[] = [...(schema.required ?? []), ...(schema.allOf ?? []).flatMap((s: any) => s.required ?? [])];
  const props = Object.assign({}, schema.properties, ...(schema.allOf ?? []).map((s: any) => s.properties ?? {}));
  const value = (name: string, p: any): unknown =>
    p.enum
      ? p.enum[0]
      : p.type === "integer"
        ? (ctx[name] ?? 1)
        : p.type === "array"
          ? []
          : p.type === "boolean"
            ? true
            : p.type === "object"
              ? {}
              : `cf-${name}`;
  return Object.fromEntries(required.map((k) => [k, value(k, props[k] ?? {})]));
}

const fill = (v: unknown): any =>
  typeof v === "string" && /^\{\w+\}$/.test(v)
    ? ctx[v.slice(1, -1)]
    : Array.isArray(v)
      ? v.map(fill)
      : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]))
        : v;

function phase(o: Op): number {
  if (LATE.has(o.op.operationId)) return 4;
  // Its integration is created first.
  if (o.op.operationId === "createUserOauthToken") return 0.5;
  if (o.method === "post" && o.op.responses["201"]) return 0;
  if (o.method === "post" && /^(startDbtSync|startUpload)$/.test(o.op.operationId)) return 0;
  if (o.method === "get") return 1;
  if (o.method === "delete") return o.op.operationId === "deleteDeployment" ? 6 : 5;
  return /^(finishUpload|refreshReportPlacement)$/.test(o.op.operationId) ? 3 : 2;
}

async function start(variants: string[]): Promise<void> {
  ref = await startReference({ variants });
  ctx = {};
  const doc: any = await $RefParser.dereference((await call("GET", "/api/v1/spec")).body);
  ops = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    Object.entries<any>(item)
      .filter(([, op]) => op["x-spec-ref"] === "E14" && path !== "/api/v1/spec")
      .map(([method, op]) => ({ method, path, op })),
  );
  const wbs = (await call("GET", "/api/v1/deployments/1/workbooks", undefined, { first: "100" })).body.items;
  const published = wbs.find((w: any) => w.publishedDashboard);
  Object.assign(ctx, {
    deploymentId: 1,
    workbookId: wbs[0].id,
    publicId: published.publishedDashboard.publicId,
    dashboardReportId: published.publishedDashboard.reportSnapshots[0].reportId,
    installationId: 4101,
    owner: "example-org",
    repo: "analytics-model",
  });
  ctx.reportId = (await call("GET", "/api/v1/deployments/1/reports")).body.items[0].id;
}
afterEach(() => ref?.close());

describe("the reference's served document describes every E14 operation truthfully", () => {
  // The platform-document variant serves another document; the tour's bodies in the reference's spelling are read there too.
  it.each([[[]], [["platform-document"]]])(
    "with variants %j, every documented E14 operation answers a documented 2xx whose body matches its schema",
    async (variants: string[]) => {
      await start(variants);
      const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
      const problems: string[] = [];
      const sorted = [...ops].sort((a, b) => phase(a) - phase(b) || (phase(a) >= 5 ? b.path.length - a.path.length : a.path.length - b.path.length));
      for (const o of sorted) {
        const id = o.op.operationId;
        // The sync to cancel is a fresh one (the tour's own has finished by then).
        if (id === "cancelDbtSync") ctx.syncJobId = (await call("POST", `/api/v1/deployments/${ctx.deploymentId}/dbt-sync`, {})).body.id;
        const pathParams: Record<string, unknown> = {
          ...ctx,
          ...(id === "upsertReportByPublicId" ? { publicId: "cf-pub-1" } : {}),
          ...(id === "deleteDeployment" ? { deploymentId: ctx.createdDeploymentId } : {}),
        };
        const path = o.path.replace(/\{(\w+)\}/g, (_, n: string) => String(pathParams[n]));
        // A started sync finishes after a few polls (reference/routes/e14/dbt-sync.ts: queued, then pollsLeft more).
        if (id === "getDbtSyncResult") for (let i = 0; i < 8; i++) await call("GET", path.replace(/\/result$/, ""));
        const res = await call(
          o.method.toUpperCase(),
          path,
          fill(BODIES[id] ?? (o.op.requestBody?.required ? synthesize(o.op.requestBody.content["application/json"].schema) : undefined)),
          QUERIES[id],
        );
        const documented = o.op.responses[String(res.status)];
        if (res.status >= 300 || !documented) {
          problems.push(`${id} ${o.method.toUpperCase()} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
          continue;
        }
        const schema = documented.content?.["application/json"]?.schema;
        if (schema && !ajv.validate(schema, res.body)) problems.push(`${id}: ${ajv.errorsText()}`);
        for (const link of Object.values<any>(documented.links ?? {}))
          for (const [param, expr] of Object.entries<string>(link.parameters))
            ctx[param === "deploymentId" ? "createdDeploymentId" : param] = res.body[expr.replace("$response.body#/", "")];
        if (id === "startUpload") ctx.uploadId = res.body.uploadId;
      }
      expect(problems).toEqual([]);
      expect(ops.length).toBeGreaterThanOrEqual(100);
    },
  );
});
