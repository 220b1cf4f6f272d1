import type { ErrorObject, ValidateFunction } from "ajv";
import { ajv2020 } from "./ajv.js";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { dereference } from "./dereference.js";
import { schemasDir } from "./paths.js";

/** The components the spec shows (E1-E13): each has a generated type (core/api/schema-types.ts, scripts/schema-types.ts). */
export const SCHEMA_NAMES = [
  "Deployment",
  "Environment",
  "EnvironmentVariable",
  "MetadataTokenResult",
  "Branch",
  "DeploymentVersion",
  "PageInfo",
  "OffsetPagination",
  "Workbook",
  "ResourceOwner",
  "DashboardConfig",
  "DashboardAppSource",
  "DashboardLayout",
  "DashboardWidget",
  "Dashboard",
  "ReportSnapshot",
  "WorkspaceItemRef",
  "ErrorBody",
  "ConflictError",
  "BulkMoveFailure",
  "DeploymentsListResponse",
  "EnvironmentsListResponse",
  "EnvVarsListResponse",
  "VersionsListResponse",
  "WorkbooksListResponse",
  "MetadataTokenResponse",
  "BranchResponse",
  "BranchesListResponse",
  "FoldersListResponse",
  "BulkMoveResponse",
  "MetadataTokenRequest",
  "StagingToggleRequest",
  "UpdateDeploymentRequest",
  "CloneWorkbookRequest",
  "UpsertWorkbookRequest",
  "BulkMoveRequest",
  "EnvVarsPutRequest",
  "Timestamp",
] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, any>;
  components: { schemas: Record<string, any> };
};

/** The contract as written: the document and the component files it refers to. */
export const openApiPath = join(schemasDir, "openapi.json");
/** The same bundled into one file by scripts/bundle-schemas.ts (`npm run schemas`); a test keeps it the bundle of the sources. */
export const bundledOpenApiPath = join(schemasDir, "openapi.bundled.json");

/** The contract as one self-contained OpenAPI 3.1 document (what the reference serves at /api/v1/spec): a fresh copy. */
export async function bundledOpenApi(): Promise<OpenApiDocument> {
  return JSON.parse(await readFile(bundledOpenApiPath, "utf8")) as OpenApiDocument;
}

/**
 * The compiled contract. Enum membership is part of every schema (MUST wherever the spec lists the
 * values), but for the one enum the revision history shows growing: widget types (Versioning 3).
 * `validate` leaves that one open, and `validateStrict` keeps it too, for the SHOULD check of
 * advertised widget types.
 */
export class Schemas {
  private readonly lenient = new Map<string, ValidateFunction>();
  private readonly strict = new Map<string, ValidateFunction>();
  // inlineRefs off: each component is compiled once and called where referred to, instead of its
  // code inlined again into every schema that refers to it: a run's schemas compile in 160 ms
  // instead of 190, validate as fast, and give the same errors in the same order.
  // validateSchema off: the components are the project's own, checked against the meta-schema by
  // test/schemas.test.ts; checking them at each run took a tenth of a second.
  private readonly ajv = ajv2020({ strict: false, allErrors: true, inlineRefs: false, validateSchema: false });

  private constructor(
    readonly document: OpenApiDocument,
    private readonly dereferenced: OpenApiDocument,
  ) {}

  static async load(): Promise<Schemas> {
    const bundled = await bundledOpenApi();
    const dereferenced = (await dereference(bundled)) as OpenApiDocument;
    return new Schemas(bundled, dereferenced);
  }

  /** The dereferenced schema of a resource: generators derive values from it. */
  schema(name: SchemaName): any {
    const s = this.dereferenced.components.schemas[name];
    if (!s) throw new Error(`no schema named ${name} in schemas/openapi.json`);
    return s;
  }

  validate(name: SchemaName, value: unknown): string[] {
    return this.check(name, value).errors;
  }

  /** The errors, and whether every one is a timestamp's format (a defect the timestamps invariant owns). */
  check(name: SchemaName, value: unknown): { errors: string[]; timestampsOnly: boolean } {
    return run(this.compiled(this.lenient, name, true), value);
  }

  validateStrict(name: SchemaName, value: unknown): string[] {
    return run(this.compiled(this.strict, name, false), value).errors;
  }

  private compiled(cache: Map<string, ValidateFunction>, name: SchemaName, openGrowing: boolean): ValidateFunction {
    let fn = cache.get(name);
    if (!fn) {
      this.schema(name);
      const id = openGrowing ? OPEN_GROWING : AS_WRITTEN;
      this.addComponents(id);
      fn = this.ajv.compile({ $ref: `${id}#/components/schemas/${name}` });
      cache.set(name, fn);
    }
    return fn;
  }

  /**
   * The document's components, as written or with the growing enums open, each schema compiled
   * once however many others refer to it: compiled whole from the dereferenced document, every
   * list answer compiled its items' schemas again (the Workbook and its dashboard in each), a tenth
   * of the suite's own time. Each copy is added when first needed: a run validates with the lenient one only.
   */
  private addComponents(id: typeof AS_WRITTEN | typeof OPEN_GROWING): void {
    if (this.ajv.getSchema(id)) return;
    const components = structuredClone(this.document.components);
    this.ajv.addSchema({ $id: id, components: id === OPEN_GROWING ? withGrowingEnumsOpen(components) : components });
  }
}

/** The ids the components are registered under: what `#/components/schemas/…` refers to in each. */
const AS_WRITTEN = "components-as-written.json";
const OPEN_GROWING = "components-growing-enums-open.json";

function run(fn: ValidateFunction, value: unknown): { errors: string[]; timestampsOnly: boolean } {
  if (fn(value)) return { errors: [], timestampsOnly: false };
  const errors = fn.errors ?? [];
  // Inside anyOf every branch reports; "must match a schema in anyOf" is no error of its own.
  const own = errors.filter((e) => e.keyword !== "anyOf" && e.keyword !== "oneOf");
  const timestampsOnly = own.length > 0 && own.every((e) => e.keyword === "pattern" && e.params.pattern === TIMESTAMP_PATTERN);
  return { errors: formatErrors(errors), timestampsOnly };
}

/** The pattern of schemas/Timestamp.schema.json, by which a timestamp's format error is told from others. */
const TIMESTAMP_PATTERN: string = JSON.parse(readFileSync(join(schemasDir, "Timestamp.schema.json"), "utf8")).pattern;

function formatErrors(errors: ErrorObject[]): string[] {
  const out = errors.map((e) => {
    const at = e.instancePath || "(root)";
    const extra =
      e.keyword === "enum" ? ` ${JSON.stringify(e.params.allowedValues)}` : e.keyword === "additionalProperties" ? ` (${e.params.additionalProperty})` : "";
    return `${at} ${e.message}${extra}`;
  });
  return [...new Set(out)];
}

/** The schemas whose enum the revision history shows growing (Versioning 3: widget types), and the property it sits on. */
const GROWING_ENUMS: Record<string, string> = { DashboardWidget: "type" };

/** The schema with the growing enums left open to any value of their type; every other enum kept. */
function withGrowingEnumsOpen(node: any, seen = new Map<any, any>()): any {
  if (!node || typeof node !== "object") return node;
  if (seen.has(node)) return seen.get(node);
  const out: any = Array.isArray(node) ? [] : {};
  seen.set(node, out);
  for (const [k, v] of Object.entries(node)) out[k] = withGrowingEnumsOpen(v, seen);
  const open = GROWING_ENUMS[node.title];
  if (open && out.properties?.[open]?.enum) {
    const { enum: _values, ...rest } = out.properties[open];
    out.properties = { ...out.properties, [open]: rest };
  }
  return out;
}
