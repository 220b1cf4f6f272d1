/**
 * What test/schemas*.test.ts share: the bundled and dereferenced schemas/openapi.json, a compiled
 * validator per component schema, the config schema, and sample values of the spec's shapes.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import $RefParser from "@apidevtools/json-schema-ref-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import m from "ajv-formats";
import type { FormatsPlugin } from "ajv-formats";

// ajv-formats is CommonJS: under NodeNext the default import is the module object.
const addFormats = ((m as unknown as { default?: FormatsPlugin }).default ?? m) as unknown as FormatsPlugin;

export const openapiPath = fileURLToPath(new URL("../schemas/openapi.json", import.meta.url));
const configPath = fileURLToPath(new URL("../schemas/config.schema.json", import.meta.url));

export type Doc = {
  openapi: string;
  jsonSchemaDialect: string;
  info: { title: string; version: string };
  security: unknown[];
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, any>; securitySchemes: Record<string, any> };
};

export let bundled: Doc;
export let deref: Doc;
export const validators = new Map<string, ValidateFunction>();
export let configValidate: ValidateFunction;

export function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}

export async function load(): Promise<void> {
  bundled = (await $RefParser.bundle(openapiPath)) as unknown as Doc;
  deref = (await $RefParser.dereference(structuredClone(bundled) as any)) as unknown as Doc;
  const ajv = newAjv();
  for (const [name, schema] of Object.entries(deref.components.schemas)) {
    validators.set(name, ajv.compile(schema));
  }
  configValidate = newAjv().compile(JSON.parse(readFileSync(configPath, "utf8")));
}

export function ok(name: string, value: unknown): boolean {
  const v = validators.get(name);
  if (!v) throw new Error(`no schema ${name}`);
  return v(value) as boolean;
}

export const pageInfo = { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: "abc" };
export const workbook = () => ({
  id: 1,
  deploymentId: 7,
  name: "Sales",
  type: "WORKBOOK",
  meta: {},
  calculatedFields: {},
  createdAt: "2024-05-01",
  updatedAt: "2024-05-01T10:00:00Z",
});
export const widget = () => ({ id: "w1", type: "CHART", position: { x: 0, y: 0, w: 4, h: 3 } });
export const dashboard = () => ({
  id: 3,
  publicId: "pub-1",
  deploymentId: 7,
  workbookId: 1,
  status: "published",
  allowEmbed: false,
  config: { kind: "CLASSIC", widgets: [widget()] },
  versionNumber: 1,
  versionId: 11,
  reportSnapshots: [{ id: 5, reportId: 6, versionNumber: 1, kind: "vega" }],
});
export const version = () => ({
  releaseChannelVersion: "cubejs/cube:v1.7.20",
  version: "1.7.20",
  releaseChannel: "latest",
  isLatestInChannel: true,
  isCurrent: false,
});
export const envList = {
  id: "env-1",
  type: "production",
  branch: "main",
  user: "u",
  api_credentials: [{ type: "rest", version: 1, database: "db", host: "h", port: 5432, url: "https://x" }],
};
export const envControl = {
  id: "env-2",
  name: "Production",
  type: "staging",
  api_credentials: { rest: { url: "https://x" }, sql: { host: "h", port: 15432 } },
};
