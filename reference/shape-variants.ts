import { HttpError, isOperation, type Req } from "./http.js";
import type { Variant } from "./variant.js";
import { matchPath } from "../core/api/match.js";
import { operation } from "../core/api/operations.js";

/**
 * Data shapes the spec leaves open (timestamps, page-size caps, the published E1 shape, nulls,
 * trailing empty pages, error bodies, item order), each as a server that makes that choice.
 */

/** The most a capped server serves in one page: below the sizes the suite used to send. */
export const PAGE_CAP = 50;
const LIST_ROUTES = ["E1", "E2", "E5", "E8", "E13", "E14"];
const CURSOR_ROUTES = ["E2", "E8", "E13", "E14"];
const WORKBOOK_ROUTES = ["E8", "E9", "E10", "E11", "E12"];
const OFFSET_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(?:Z|[+-]\d{2}:?\d{2})$/i;

const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every string under a key named like a timestamp (`created_at`, `updatedAt`), without its offset. */
export function withoutOffsets(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutOffsets);
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = typeof v === "string" && /(_at|At)$/.test(k) ? v.replace(OFFSET_TIMESTAMP, "$1") : withoutOffsets(v);
  return out;
}

/** A page-size parameter above the cap, if the request sends one. */
function oversized(req: Req): { name: string; value: number } | undefined {
  for (const name of ["first", "limit"]) {
    const value = Number(req.query.get(name));
    if (req.query.has(name) && Number.isInteger(value) && value > PAGE_CAP) return { name, value };
  }
  return undefined;
}

/** Applies `f` to each record of a list answer (`items`, `data`), or to the record itself. */
function eachRecord(body: any, f: (r: any) => any): any {
  if (!isObject(body)) return body;
  if (Array.isArray(body.items) || Array.isArray(body.data)) {
    const out = { ...body };
    for (const k of ["items", "data"]) if (Array.isArray(body[k])) out[k] = body[k].map(f);
    return out;
  }
  if (Array.isArray(body.moved)) return { ...body, moved: body.moved.map(f) };
  return f(body);
}

/** A dashboard config with the nested nulls the published document allows. */
function nullableConfig(config: any): any {
  if (!isObject(config)) return config;
  const app = isObject(config.app) ? { ...config.app, manifest: { dependencies: null, version: null } } : config.app;
  const widgets = Array.isArray(config.widgets) ? config.widgets.map((w: any) => (isObject(w) ? { ...w, responsiveLayouts: null } : w)) : config.widgets;
  return { ...config, widgets, app };
}

function nullableWorkbook(w: any): any {
  if (!isObject(w) || !("type" in w)) return w;
  const published = isObject(w.publishedDashboard)
    ? {
        ...w.publishedDashboard,
        config: nullableConfig(w.publishedDashboard.config),
        reportSnapshots: (w.publishedDashboard.reportSnapshots ?? []).map((s: any) => ({ ...s, preferences: { columnFormats: null } })),
      }
    : w.publishedDashboard;
  // The draft is what a caller sent, and comes back as sent: only what the server publishes changes.
  return { ...w, isFavorite: null, dashboardPublished: nullableConfig(w.dashboardPublished), publishedDashboard: published };
}

/** published docs: environment user and credential fields may be null; the branch is kept (discovery reads it). */
function nullableEnvironment(e: any): any {
  if (!isObject(e)) return e;
  const credentials = Array.isArray(e.api_credentials)
    ? e.api_credentials.map((c: any) => (c?.type === "rest" ? { ...c, database: null, host: null, port: null } : { ...c, url: null, database: null }))
    : e.api_credentials;
  return { ...e, user: e.user || null, api_credentials: credentials };
}

const nullableBranch = (b: any) => (isObject(b) ? { ...b, parentBranch: b.parentBranch || null, lastHash: null } : b);

/** A list that shows itself whole on one page needs no pageInfo: `drop` removes it, else null. */
function pageInfoWhenWhole(body: any, drop: boolean): any {
  const p = body?.pageInfo;
  if (!isObject(p) || p.hasNextPage || p.hasPreviousPage) return body;
  if (!drop) return { ...body, pageInfo: null };
  const { pageInfo: _whole, ...rest } = body;
  return rest;
}

/** A full last page (as many items as `first` asked) that still announces a next page, which is empty. */
export function trailingEmptyPage(body: any, req: Req): any {
  const p = body?.pageInfo;
  const first = Number(req.query.get("first"));
  const full = Array.isArray(body?.items) && body.items.length > 0 && body.items.length === first;
  return isObject(p) && full && !p.hasNextPage && typeof p.endCursor === "string" ? { ...body, pageInfo: { ...p, hasNextPage: true } } : body;
}

/** E6's fields of a settings answer grouped by kind (variant settings-grouped); the rest as they were. */
function groupedSettings(body: any): any {
  if (!isObject(body)) return body;
  const groups = {
    release: ["releaseChannel", "releaseChannelVersion", "releaseChannelVersionHold"],
    launchpad: ["launchpadTabs", "defaultLaunchpadViewGroup"],
  };
  const out: Record<string, unknown> = { ...body };
  for (const [group, fields] of Object.entries(groups)) {
    out[group] = Object.fromEntries(fields.filter((f) => f in body).map((f) => [f, body[f]]));
    for (const f of fields) delete out[f];
  }
  return out;
}

export const shapeVariants: Variant[] = [
  {
    name: "no-date-header",
    description:
      "answers carry no Date header (RFC 9110 asks one of an origin server with a clock; a hand-written server may leave it out): a clone's age is read off the server's own createdAt of what the run made",
    routes: [],
    exercises: ["E10"],
    dateless: true,
  },
  {
    name: "settings-nested",
    description:
      'Deployment settings (E14, shape not shown) answered one level deeper, as {"data": {"settings": {...}}}: what a check changes is still read, compared and put back',
    routes: ["E14"],
    respond: (body, req) => (req.method === "GET" && matchPath(operation("getDeploymentSettings").path, req.path) ? { data: { settings: body } } : body),
  },
  {
    name: "settings-grouped",
    description:
      "Deployment settings (E14, shape not shown) group E6's fields by kind, as the blind PHP server does: release: {releaseChannel, releaseChannelVersion, releaseChannelVersionHold}, launchpad: {launchpadTabs, defaultLaunchpadViewGroup}",
    routes: ["E14"],
    respond: (body, req) => (req.method === "GET" && matchPath(operation("getDeploymentSettings").path, req.path) ? groupedSettings(body) : body),
  },
  {
    name: "naive-timestamps",
    description: "Every timestamp an ISO 8601 date-time without offset (2026-01-01T10:00:00.000): E1, E3, workbooks and folders",
    routes: ["E1", "E3", ...WORKBOOK_ROUTES, "E14"],
    respond: (body, req) => (req.operation === "getSpec" ? body : withoutOffsets(body)),
    shouldFindings: ["deployments.list.created-at-offset"],
  },
  {
    name: "page-cap-reject",
    description: `A page size (first or limit) above ${PAGE_CAP} is refused with 400 on every list`,
    routes: LIST_ROUTES,
    request: (req) => {
      const big = oversized(req);
      if (big) throw new HttpError(400, `${big.name} must not be greater than ${PAGE_CAP}`);
    },
    // The server documents its cap: a served document that lists no 400 would contradict it.
    respond: (body, req) => (req.operation === "getSpec" ? documentedCap(body) : body),
  },
  {
    name: "page-cap-clamp",
    description: `A page size (first or limit) above ${PAGE_CAP} is silently served as ${PAGE_CAP} on every list`,
    routes: LIST_ROUTES,
    request: (req) => {
      const big = oversized(req);
      if (big) req.query.set(big.name, String(PAGE_CAP));
    },
  },
  {
    name: "deployments-published",
    description:
      "E1 as the published document shows it: data (and items) an array of deployments with integer ids, deploymentUrl and creationStep, no created_at; pageInfo beside pagination",
    routes: ["E1"],
    shouldFindings: ["deployments.list.spec-shape"],
    respond: (body) => {
      const deployments = (body.data.deployments as any[]).map(({ created_at: _absent, ...d }) => ({
        ...d,
        id: Number(d.id),
        deploymentUrl: `https://deployment-${d.id}.reference.local`,
        creationStep: "completed",
      }));
      const { offset, total } = body.pagination;
      const pageInfo = { hasNextPage: offset + deployments.length < total, hasPreviousPage: offset > 0, startCursor: null, endCursor: null };
      return { data: deployments, items: deployments, pageInfo, pagination: body.pagination };
    },
  },
  {
    name: "nullable-fields",
    description:
      "null or absent wherever the published document allows it: environment user and credentials, branch parentBranch/lastHash, pageInfo of a list shown whole, isFavorite, widget responsiveLayouts, app manifest, snapshot columnFormats",
    routes: ["E2", "E4", "E13", "E14", ...WORKBOOK_ROUTES],
    respond: (body, req) => {
      if (req.operation === "listEnvironments") return pageInfoWhenWhole(eachRecord(body, nullableEnvironment), true);
      if (isOperation(req, "listEnvVars", "setEnvVars")) return pageInfoWhenWhole(body, false);
      if (isOperation(req, "listBranches", "createBranch", "deleteBranch")) return eachRecord(body, nullableBranch);
      if (req.operation === "setStagingEnvironment") return { ...body, data: nullableBranch(body.data) };
      if (req.operation === "getSpec") return body;
      return eachRecord(body, nullableWorkbook);
    },
  },
  {
    name: "trailing-empty-page",
    description: "A cursor page that ends the list exactly at `first` still says hasNextPage: true; the page after it is empty with hasNextPage false",
    routes: CURSOR_ROUTES,
    respond: trailingEmptyPage,
    shouldFindings: ["environments.cursor.page-info-exact", "pagination.cursor.last-page-exact"],
  },
  {
    name: "error-message-body",
    description:
      "Every error body in the NestJS style: {statusCode, message} without error, message an array of strings on a 400 or 401 (validation, guard), a string otherwise",
    routes: [],
    error: (status, body) => {
      if (!isObject(body) || typeof body.error !== "string") return body;
      const { error, ...rest } = body;
      return { ...rest, statusCode: status, message: status === 400 || status === 401 ? [error] : error };
    },
  },
  {
    name: "newest-first",
    description: "Every list (offset and cursor) in reverse order of creation: newest first",
    routes: [],
    behaviour: { pageSlice: (list, start, count) => [...list].reverse().slice(start, start + count) },
  },
];

/** The served document with the page cap of page-cap-reject: `maximum` on every page size, and its 400 listed. */
function documentedCap(doc: any): any {
  const out = structuredClone(doc);
  for (const item of Object.values<any>(out.paths ?? {}))
    for (const op of Object.values<any>(item ?? {})) {
      const sizes = (op?.parameters ?? []).filter((p: any) => p?.in === "query" && (p.name === "first" || p.name === "limit"));
      for (const p of sizes) p.schema = { ...p.schema, maximum: PAGE_CAP };
      if (sizes.length) op.responses = { "400": { description: `a page size above ${PAGE_CAP}` }, ...op.responses };
    }
  return out;
}
