import $RefParser from "@apidevtools/json-schema-ref-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import formatsModule from "ajv-formats";
import { join } from "node:path";
import { schemasDir } from "./paths.js";

const addFormats = ((formatsModule as any).default ?? formatsModule) as (ajv: Ajv2020) => Ajv2020;

export type SchemaName =
  | "Deployment" | "Environment" | "EnvironmentVariable" | "MetadataTokenResult" | "Branch"
  | "DeploymentVersion" | "PageInfo" | "OffsetPagination" | "Workbook" | "ResourceOwner"
  | "DashboardConfig" | "DashboardAppSource" | "DashboardLayout" | "DashboardWidget" | "Dashboard"
  | "ReportSnapshot" | "WorkspaceItemRef" | "ErrorBody" | "ConflictError" | "BulkMoveFailure"
  | "DeploymentsListResponse" | "EnvironmentsListResponse" | "EnvVarsListResponse" | "VersionsListResponse"
  | "WorkbooksListResponse" | "MetadataTokenResponse" | "BranchResponse" | "BranchesListResponse"
  | "FoldersListResponse" | "BulkMoveResponse" | "MetadataTokenRequest" | "StagingToggleRequest"
  | "UpdateDeploymentRequest" | "CloneWorkbookRequest" | "UpsertWorkbookRequest" | "BulkMoveRequest"
  | "EnvVarsPutRequest" | "Timestamp";

export type OpenApiDocument = { openapi: string; info: { title: string; version: string }; paths: Record<string, any>; components: { schemas: Record<string, any> } };

export const openApiPath = join(schemasDir, "openapi.json");

/** The contract as one self-contained OpenAPI 3.1 document (what the reference serves at /api/v1/spec). */
export async function bundledOpenApi(): Promise<OpenApiDocument> {
  return (await $RefParser.bundle(openApiPath)) as unknown as OpenApiDocument;
}

/**
 * The compiled contract. Response schemas are checked twice over: `validate` ignores enum
 * membership (published docs: newer servers add enum values, which is no MUST failure) and
 * `validateStrict` keeps it, for the SHOULD checks of advertised values.
 */
export class Schemas {
  private readonly lenient = new Map<string, ValidateFunction>();
  private readonly strict = new Map<string, ValidateFunction>();
  private readonly ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));

  private constructor(readonly document: OpenApiDocument, private readonly dereferenced: OpenApiDocument) {}

  static async load(): Promise<Schemas> {
    const bundled = await bundledOpenApi();
    const dereferenced = (await $RefParser.dereference(structuredClone(bundled))) as unknown as OpenApiDocument;
    return new Schemas(bundled, dereferenced);
  }

  /** The dereferenced schema of a resource: generators derive values from it. */
  schema(name: SchemaName): any {
    const s = this.dereferenced.components.schemas[name];
    if (!s) throw new Error(`no schema named ${name} in schemas/openapi.json`);
    return s;
  }

  validate(name: SchemaName, value: unknown): string[] {
    return run(this.compiled(this.lenient, name, true), value);
  }

  validateStrict(name: SchemaName, value: unknown): string[] {
    return run(this.compiled(this.strict, name, false), value);
  }

  private compiled(cache: Map<string, ValidateFunction>, name: SchemaName, dropEnums: boolean): ValidateFunction {
    let fn = cache.get(name);
    if (!fn) {
      const schema = structuredClone(this.schema(name));
      fn = this.ajv.compile(dropEnums ? withoutEnums(schema) : schema);
      cache.set(name, fn);
    }
    return fn;
  }
}

function run(fn: ValidateFunction, value: unknown): string[] {
  return fn(value) ? [] : formatErrors(fn.errors ?? []);
}

function formatErrors(errors: ErrorObject[]): string[] {
  const out = errors.map((e) => {
    const at = e.instancePath || "(root)";
    const extra = e.keyword === "enum" ? ` ${JSON.stringify((e.params as any).allowedValues)}` : e.keyword === "additionalProperties" ? ` (${(e.params as any).additionalProperty})` : "";
    return `${at} ${e.message}${extra}`;
  });
  return [...new Set(out)];
}

function withoutEnums(node: any): any {
  if (Array.isArray(node)) return node.map(withoutEnums);
  if (node && typeof node === "object") {
    const out: any = {};
    for (const [k, v] of Object.entries(node)) if (k !== "enum") out[k] = withoutEnums(v);
    if ("enum" in node && !("type" in node)) out.type = [...new Set((node.enum as unknown[]).map(jsonType))];
    return out;
  }
  return node;
}

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}
