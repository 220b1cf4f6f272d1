import { HttpError, type Req } from "./http.js";
import type { Variant } from "./variant.js";
import { shapeVariants } from "./shape-variants.js";
import { createAnswerDefects } from "./create-answer-defects.js";
import { platformDocumentVariant } from "./platform-document.js";
import { devModePerCaller } from "./dev-mode-per-caller.js";
import { blindSpellings } from "./blind-spellings.js";
import { deploymentsByLastUpdate } from "./deployments-by-last-update.js";
import { transientVariants } from "./transient-variants.js";
import { acceptedWrites } from "./accepted-writes.js";
import { embedMembersOnGroup } from "./embed-members-on-group.js";
import { shuffledKeys } from "./shuffled-keys.js";
import { matchPath } from "../core/api/match.js";
import { operation, type Operation } from "../core/api/operations.js";

export type { Variant } from "./variant.js";

const displayName: Record<string, string> = { production: "Production", staging: "Staging", development: "Development" };

const dateOnly = (v: unknown) => (typeof v === "string" ? v.slice(0, 10) : v);

function mapWorkbooks(body: any, f: (w: any) => any): any {
  if (Array.isArray(body?.items)) return { ...body, items: body.items.map(f), data: Array.isArray(body.data) ? body.data.map(f) : body.data };
  if (Array.isArray(body?.moved)) return { ...body, moved: body.moved.map(f) };
  return body && typeof body === "object" && "type" in body ? f(body) : body;
}

/** A widget config keeping its report elsewhere than `reportId`: as a string under a nested key, in an array, or as a number under another key. */
function refElsewhere(config: any, i: number): any {
  if (!config || typeof config !== "object" || typeof config.reportId !== "number") return config;
  const { reportId, ...rest } = config;
  return [
    { ...rest, source: { kind: "report", ref: String(reportId) } },
    { ...rest, reports: [reportId] },
    { ...rest, chart: { report: reportId } },
  ][i % 3];
}

function refsElsewhereIn(dashboardConfig: any): any {
  if (!dashboardConfig || typeof dashboardConfig !== "object" || !Array.isArray(dashboardConfig.widgets)) return dashboardConfig;
  return {
    ...dashboardConfig,
    widgets: dashboardConfig.widgets.map((w: any, i: number) => (w && typeof w === "object" ? { ...w, config: refElsewhere(w.config, i) } : w)),
  };
}

type Declared = "integer" | "number" | "boolean" | "string";

/** The fields of each request body a lenient server coerces, with the type each is read as. */
const LENIENT_FIELDS: Record<string, Record<string, Declared>> = {
  E3: { expires_in: "number" },
  E4: { enabled: "boolean", branchName: "string", branchId: "integer" },
  E10: { shared: "boolean" },
  E11: { name: "string", folderId: "integer" },
  E12: { folderId: "integer" },
};

/** The spec section of the operation a request went to (its row's). */
const sectionOf = (req: Req): string => (req.operation ? operation(req.operation).section : "");

/** The value a lenient server reads `v` as, where it spells a value of the declared type without loss. */
function coerce(v: unknown, to: Declared): unknown {
  if (to === "string" && (typeof v === "number" || typeof v === "boolean")) return String(v);
  if (to === "boolean" && typeof v === "string" && /^(true|false)$/.test(v)) return v === "true";
  if (to === "boolean" && (v === 0 || v === 1)) return v === 1;
  if ((to === "integer" || to === "number") && typeof v === "string" && /^-?\d+$/.test(v)) return Number(v);
  if ((to === "integer" || to === "number") && typeof v === "boolean") return v ? 1 : 0;
  if (to === "number" && typeof v === "string" && /^-?\d+\.\d+$/.test(v)) return Number(v);
  return v;
}

function coerceFields(body: any, fields: Record<string, Declared>): any {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const out = { ...body };
  for (const [k, to] of Object.entries(fields)) if (k in out) out[k] = coerce(out[k], to);
  if (Array.isArray(out.items))
    out.items = out.items.map((i: any) => (i && typeof i === "object" && !Array.isArray(i) && "id" in i ? { ...i, id: coerce(i.id, "integer") } : i));
  return out;
}

export const variants: Variant[] = [
  {
    name: "env-control-plane",
    description:
      "E2 in the control-plane shape as the platform's docs show it: data.environments of {id, name (a display name), type, api_credentials keyed by kind}, no branch and no user; pagination null",
    routes: ["E2"],
    // Staging checks read the toggled state back from E2, and discover their branches through it.
    exercises: ["E4"],
    respond: (body) => ({
      data: {
        environments: (body.items as any[]).map((e) => ({
          id: e.id,
          name: displayName[e.type as string] ?? "Environment",
          type: e.type,
          api_credentials: { rest: { url: e.api_credentials[0].url }, sql: { host: e.api_credentials[1].host, port: e.api_credentials[1].port } },
        })),
      },
      pagination: null,
    }),
  },
  {
    name: "branch-nullables",
    description:
      "E4 answers parentBranch and lastHash null and isStagingEnvironmentEnabled null; the branches list leaves the flag out (the published document allows both)",
    routes: ["E4", "E14"],
    respond: (body, req) => {
      if (req.operation === "setStagingEnvironment")
        return { ...body, data: { ...body.data, parentBranch: null, lastHash: null, isStagingEnvironmentEnabled: null } };
      // Only the list: POST on the same path creates one branch and answers its record, not a list.
      if (req.operation !== "listBranches") return body;
      const bare = ({ isStagingEnvironmentEnabled, ...b }: any) => ({ ...b, parentBranch: null, lastHash: null });
      return { ...body, items: body.items.map(bare), data: body.data.map(bare) };
    },
  },
  {
    name: "legacy-data-reordered",
    description: "The deprecated data copy of E2, E8 and E13 lists its entries in another order than items (reversed)",
    routes: ["E2", "E8", "E13"],
    respond: (body) => (Array.isArray(body?.data) && Array.isArray(body?.items) ? { ...body, data: [...body.data].reverse() } : body),
  },
  {
    name: "bulk-move-folder-optional",
    description: "E12 reads a body without folderId as a move to the workspace root (the spec does not say folderId is required)",
    routes: ["E12"],
    readRequestBody: (body) => (body && typeof body === "object" && !Array.isArray(body) && !("folderId" in body) ? { ...body, folderId: null } : body),
  },
  {
    name: "draft-in-meta",
    description:
      "Workbooks also show their dashboard draft inside meta (meta.dashboardDraft, as E11 rule 2 names it): a clone's meta then holds the copied reports' ids",
    routes: ["E8", "E9", "E10", "E11", "E12"],
    respond: (body) => mapWorkbooks(body, (w) => (w.dashboardDraft ? { ...w, meta: { ...w.meta, dashboardDraft: w.dashboardDraft } } : w)),
  },
  {
    name: "audit-columns-unnamed",
    description: "E7's CSV columns in another order under header names that say nothing the suite could guess (columns are not shown in the spec)",
    routes: ["E7"],
    behaviour: {
      auditColumns: () => [
        ["Details", "details"],
        ["Was", "eventName"],
        ["Wann", "timestamp"],
        ["Wo", "deploymentName"],
        ["Wer", "userEmail"],
        ["Von", "ipAddress"],
      ],
    },
  },
  {
    name: "coerce-types",
    description:
      'Request bodies of E3, E4, E10, E11 and E12 read leniently: "12" as 12, "true"/0/1 as booleans, true/false as 1/0 where a number is declared, numbers and booleans as strings where a string is declared (the spec names no status for a wrongly typed body)',
    routes: ["E3", "E4", "E10", "E11", "E12"],
    readRequestBody: (body, req) => coerceFields(body, LENIENT_FIELDS[sectionOf(req)] ?? {}),
  },
  {
    name: "lenient-clone-body",
    description: 'E10 takes a body that is the JSON string "" as no body (the body is optional)',
    routes: ["E10"],
    readRequestBody: (body) => (body === "" ? undefined : body),
  },
  {
    name: "upsert-create-needs-name",
    description:
      "E11 refuses to create a workbook without a name (400 naming the field); an update by slug may still omit it (required-ness of the body's fields is not shown)",
    routes: ["E11"],
    behaviour: { upsertCreateProblem: (sent) => (sent.name === undefined ? "name: required to create a workbook" : undefined) },
  },
  {
    name: "report-refs-elsewhere",
    description:
      "Dashboard widgets keep their report under other keys and shapes than config.reportId: a string under config.source.ref, a number in config.reports[], a number under config.chart.report (where a widget keeps it is not shown)",
    routes: ["E8", "E9", "E10", "E11", "E12"],
    respond: (body) =>
      mapWorkbooks(body, (w) => ({
        ...w,
        dashboardDraft: refsElsewhereIn(w.dashboardDraft),
        ...(w.publishedDashboard ? { publishedDashboard: { ...w.publishedDashboard, config: refsElsewhereIn(w.publishedDashboard.config) } } : {}),
      })),
  },
  {
    name: "lenient-optional-bodies",
    description:
      'E10 takes any body that is no object (" ", [], false) as no body and clones; E4 reads a null branchName beside a branchId (or the other way round) as absent and toggles the branch named (the spec states no outcome for either)',
    routes: ["E4", "E10"],
    readRequestBody: (body, req) => {
      if (req.operation === "duplicateWorkbook") return body === null || typeof body !== "object" || Array.isArray(body) ? undefined : body;
      if (req.operation !== "setStagingEnvironment" || !body || typeof body !== "object" || Array.isArray(body)) return body;
      const out = { ...body };
      if (out.branchName === null && out.branchId != null) delete out.branchName;
      if (out.branchId === null && out.branchName != null) delete out.branchId;
      return out;
    },
    shouldFindings: ["workspace.negative.broken-body-4xx", "staging.negative.broken-body-4xx"],
  },
  {
    name: "document-without-audit-export",
    description:
      "The served OpenAPI document leaves out E7 (GET /api/v1/audit-logs/export), as the platform's published document does: a SHOULD finding, never a MUST failure",
    routes: ["E14"],
    respond: (body, req) => {
      if (req.operation !== "getSpec" || !body?.paths) return body;
      const paths = Object.fromEntries(Object.entries(body.paths).filter(([p]) => p !== operation("exportAuditLog").path));
      return { ...body, paths };
    },
    shouldFindings: ["spec.operations.documented"],
  },
  {
    name: "reports-listed-first",
    description:
      "E8 lists the deployment's REPORT items too (Workbook.type has REPORT), newest first and before the workbooks: a first page may hold reports only",
    routes: ["E8"],
    behaviour: { workbookListOrder: (items) => ["REPORT", "WORKBOOK"].flatMap((type) => items.filter((i) => i.type === type).sort((a, b) => b.id - a.id)) },
  },
  {
    name: "pagination-null",
    description: "E2 keeps items/pageInfo but answers pagination: null",
    routes: ["E2"],
    respond: (body) => ({ ...body, pagination: null }),
  },
  {
    name: "date-only",
    description: "Workbook timestamps as `date` strings instead of `date-time`",
    routes: ["E8", "E9", "E10", "E11", "E12"],
    respond: (body) => mapWorkbooks(body, (w) => ({ ...w, createdAt: dateOnly(w.createdAt), updatedAt: dateOnly(w.updatedAt) })),
  },
  {
    name: "date-only-reads",
    description:
      "Workbook timestamps as `date` strings on the reads (E8, E9) while the writes (E10, E11, E12) answer `date-time`: both forms are allowed for the same field",
    routes: ["E8", "E9"],
    exercises: ["E10", "E11", "E12"],
    respond: (body) => mapWorkbooks(body, (w) => ({ ...w, createdAt: dateOnly(w.createdAt), updatedAt: dateOnly(w.updatedAt) })),
  },
  {
    name: "extra-fields",
    description: "Unknown extra fields on every record and list (newer servers add some)",
    routes: ["E1", "E2", "E5", "E8", "E9", "E13"],
    respond: (body) => {
      const extra = (o: any) => (o && typeof o === "object" && !Array.isArray(o) ? { ...o, promotion: null, x_newer_field: { nested: true } } : o);
      const out = extra(body);
      for (const k of ["items", "data"]) if (Array.isArray(out[k])) out[k] = out[k].map(extra);
      if (out.data?.deployments) out.data = { ...out.data, deployments: out.data.deployments.map(extra) };
      return out;
    },
  },
  shuffledKeys,
  {
    name: "versions-items",
    description: "E5 as {items, pageInfo} instead of {data}",
    routes: ["E5"],
    respond: (body) => ({ items: body.data, pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null } }),
  },
  ...shapeVariants,
  platformDocumentVariant,
  {
    name: "without-settings-read",
    description: "GET deployment settings (E14, shape not shown) is not served: the checks that compare or restore settings are not verifiable, never failed",
    routes: ["E14"],
    respond: (body, req) => notServed(req, operation("getDeploymentSettings"), body),
  },
  {
    name: "bulk-move-missing-destination-per-item",
    description: "A bulk move into a folder that does not exist answers 200, each item failing with 400 (an invalid move) rather than the request with 404",
    routes: ["E12"],
    behaviour: { missingDestinationStatus: () => 400 },
  },
  {
    name: "without-attribute-delete",
    description:
      "DELETE a user attribute (E14, shape not shown) is not served: the attributes a run creates are the tool's fixed ones, announced to stay (--allow-unremovable-writes), never a leftover",
    routes: ["E14"],
    request: (req) => {
      if (req.operation === "deleteUserAttribute") throw new HttpError(405, "user attributes cannot be deleted");
    },
    respond: (body, req) => notServed(req, operation("deleteUserAttribute"), body),
  },
  {
    name: "without-folder-creation",
    description: "POST folders (E14, shape not shown) is not served: the checks that need folders of their own are not verifiable, never failed",
    routes: ["E14"],
    respond: (body, req) => notServed(req, operation("createFolder"), body),
  },
];

/**
 * An E14 route a server may lack: it answers 404, as an unknown route does, and the server's own
 * document does not list it (a server describes what it serves). The operation's template matches
 * the request's path and the document's template alike (a placeholder takes a `{placeholder}`).
 */
function notServed(req: Req, op: Operation, body: any): unknown {
  const method = op.method;
  // The document's templates are another table: the table's matcher tells which is the operation's.
  const at = (path: string) => matchPath(op.path, path) !== undefined;
  if (req.operation === op.name) throw new HttpError(404, `no route ${req.path}`);
  if (req.operation !== "getSpec" || !body?.paths) return body;
  const paths = Object.fromEntries(
    Object.entries<any>(body.paths).map(([p, item]) => [
      p,
      at(p) ? Object.fromEntries(Object.entries(item).filter(([m]) => m.toUpperCase() !== method)) : item,
    ]),
  );
  return { ...body, paths };
}

/** Each variant and the spec sections whose checks it exercises: what `conformance list` shows. */
export function variantSections(): { name: string; sections: string[] }[] {
  return variants.map((v) => ({ name: v.name, sections: [...new Set([...v.routes, ...(v.exercises ?? [])])] }));
}

export function variantNamed(name: string): Variant {
  const v = [...variants, ...createAnswerDefects].find((x) => x.name === name);
  if (!v) throw new Error(`unknown variant '${name}' (known: ${[...variants, ...createAnswerDefects].map((x) => x.name).join(", ")})`);
  return v;
}

/** The largest page size the page-size-capped variant takes; a larger one is refused (422). A cursor page holds at most CLAMPED_PAGE items. */
const MAX_PAGE_SIZE = 25;
const CLAMPED_PAGE = 3;

variants.push({
  name: "page-size-capped",
  description: `Every list refuses a first or limit above ${MAX_PAGE_SIZE} with 422, and serves a cursor page of at most ${CLAMPED_PAGE} items whatever first asks (maximum page sizes are not shown: a refusal and a clamp are both allowed; the offset default of 20 is kept)`,
  routes: ["E1", "E2", "E8", "E13", "E14"],
  request: (req) => {
    for (const name of ["first", "limit"]) {
      const raw = req.query.get(name);
      if (raw !== null && /^\d+$/.test(raw) && Number(raw) > MAX_PAGE_SIZE) throw new HttpError(422, `${name} must be at most ${MAX_PAGE_SIZE}`);
    }
    const first = req.query.get("first");
    if (first !== null && /^\d+$/.test(first) && Number(first) > CLAMPED_PAGE) req.query.set("first", String(CLAMPED_PAGE));
  },
  // Its served document lists no 422 for the reads: generated page sizes above the cap meet an undocumented status.
  shouldFindings: ["documented.reads.match-document"],
});

/** The JSON type each optional field of E4 and E10 is read as, by the variant that drops a mistyped one. */
const OPTIONAL_FIELD_TYPES: Record<string, Record<string, (v: unknown) => boolean>> = {
  E4: { branchName: (v) => typeof v === "string", branchId: (v) => Number.isInteger(v) },
  E10: { shared: (v) => typeof v === "boolean" },
};

variants.push({
  name: "mistyped-optional-as-absent",
  description:
    'E4 and E10 read an optional field of the wrong type (an object, an array, a number, a boolean, a null) as absent when the rest of the body is valid without it: {"enabled": false, "branchId": 301, "branchName": {}} toggles branch 301, {"shared": {}} is a plain clone (the spec states no outcome for either)',
  routes: ["E4", "E10"],
  readRequestBody: (body, req) => {
    const fields = OPTIONAL_FIELD_TYPES[sectionOf(req)];
    if (!fields || !body || typeof body !== "object" || Array.isArray(body)) return body;
    const out = { ...body };
    for (const [k, ok] of Object.entries(fields)) if (k in out && !ok(out[k])) delete out[k];
    // E4 still needs a branch named: a body that named it only by the mistyped field stays as sent.
    return sectionOf(req) === "E4" && !("branchName" in out) && !("branchId" in out) ? body : out;
  },
  shouldFindings: ["workspace.negative.broken-body-4xx", "staging.negative.broken-body-4xx"],
});

variants.push({
  name: "last-viewed-cursor-refused",
  description:
    "Sorted by lastViewedAt, the reports list offers an endCursor but refuses any after with that sort (422): the cursor is not available, as E14 says; the offer is a SHOULD finding",
  routes: ["E14"],
  request: (req) => {
    if (req.operation === "listReports" && req.query.get("sortBy") === "lastViewedAt" && req.query.get("after") !== null)
      throw new HttpError(422, "after is not available when sorting by lastViewedAt");
  },
  behaviour: { cursorWhenSortedByLastViewed: () => true },
  shouldFindings: ["reports.list.last-viewed-no-cursor-offered"],
});

variants.push({
  name: "workbook-optional-fields-omitted",
  description:
    'Workbook answers leave out the optional folderId, dashboardDraft and publishedDashboard ("Required: no"): where a workbook is shows through E8\'s folderId filter',
  routes: ["E8", "E9", "E10", "E11", "E12"],
  respond: (body) => mapWorkbooks(body, ({ folderId, dashboardDraft, publishedDashboard, ...w }) => w),
});

variants.push(devModePerCaller, ...blindSpellings, ...transientVariants, acceptedWrites, embedMembersOnGroup, deploymentsByLastUpdate);
