import { type App, HttpError, ok, type Reply, type Req, type Route } from "../../http.js";
import { cursorPage } from "../../paging.js";
import { e14, newId, nowIso, type Rec } from "../../e14/state.js";
import { deploymentOf } from "../common.js";
import { matchOperation } from "../../../core/api/match.js";
import { OPERATIONS, type OperationName } from "../../../core/api/operations.js";

/**
 * A resource engine for the E14 families whose only rules are their shapes (the spec states none
 * beyond their purpose): list (cursor style), create, read, update, delete over in-memory records,
 * each field checked against its declared type. The served document declares the same shapes
 * (schemas/openapi.json); the families with stated rules have their own routes beside this.
 */
export type FieldType = "string" | "integer" | "boolean" | "object" | "array" | "string[]" | readonly string[];

export interface ResourceDef {
  name: string;
  /** The collection path, with `{param}` placeholders; the item path appends `/{<idParam>}`. */
  collection: string;
  idParam: string;
  ops: { list?: boolean; create?: boolean; get?: boolean; update?: "PUT" | "PATCH"; remove?: boolean };
  fields: Record<string, FieldType>;
  required: readonly string[];
  /** Fields a `search` query term matches (0.4.0: search on users and groups lists). */
  search?: string[];
  /** Fields accepted on writes and never answered (secrets). */
  writeOnly?: string[];
  /** Other path parameters that must name an existing record of another resource. */
  parents?: Record<string, string>;
  /** A rule beyond field types, checked on every write (an HttpError refuses it). */
  validate?: (fields: Record<string, unknown>) => void;
  /** Records every scope starts with. */
  seed?: () => Record<string, unknown>[];
}

function scopeKey(def: ResourceDef, req: Req): string {
  return Object.keys(req.params)
    .filter((p) => p !== def.idParam)
    .sort()
    .map((p) => `${p}=${req.params[p]}`)
    .join("&");
}

function table(app: App, def: ResourceDef, req: Req): Map<string, Rec> {
  if (req.params.deploymentId !== undefined) deploymentOf(app, req);
  const s = e14(app.store);
  for (const [param, parent] of Object.entries(def.parents ?? {})) {
    const found = [...(s.resources.get(parent)?.values() ?? [])].some((t) => t.has(req.params[param]));
    if (!found) throw new HttpError(404, `${parent} ${req.params[param]} not found`);
  }
  let byScope = s.resources.get(def.name);
  if (!byScope) s.resources.set(def.name, (byScope = new Map()));
  const key = scopeKey(def, req);
  let records = byScope.get(key);
  if (!records) {
    records = new Map();
    for (const seed of def.seed?.() ?? []) {
      const id = newId(s);
      records.set(String(id), { ...seed, id, createdAt: "2026-01-05T09:00:00.000Z", updatedAt: "2026-01-05T09:00:00.000Z" });
    }
    byScope.set(key, records);
  }
  return records;
}

/** Touches every scope a resource's seed lives in, so that a list of its parents finds them. */
export function recordsOf(app: App, def: ResourceDef, params: Record<string, string>): Map<string, Rec> {
  return table(app, def, { params } as Req);
}

function typeOk(t: FieldType, v: unknown): boolean {
  if (Array.isArray(t)) return typeof v === "string" && t.includes(v);
  // Any integer its document allows (no maximum is declared): one past 2^53 is still an integer, held as JSON parsed it.
  if (t === "integer") return Number.isInteger(v);
  if (t === "array") return Array.isArray(v);
  if (t === "string[]") return Array.isArray(v) && v.every((x) => typeof x === "string");
  if (t === "object") return !!v && typeof v === "object" && !Array.isArray(v);
  return typeof v === t;
}

/** The body's known fields, each of its declared type; a create also needs every required one. */
export function readFields(def: Pick<ResourceDef, "fields" | "required">, body: unknown, creating: boolean): Record<string, unknown> {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "the body must be a JSON object");
  const out: Record<string, unknown> = {};
  for (const [k, t] of Object.entries(def.fields)) {
    const v = (body as Record<string, unknown>)[k];
    if (v === undefined) continue;
    if (!typeOk(t, v))
      throw new HttpError(400, `${k} must be ${Array.isArray(t) ? `one of ${t.join(", ")}` : `${/^[aeiou]/.test(String(t)) ? "an" : "a"} ${t}`}`);
    out[k] = v;
  }
  // A required field is never empty (its documented minLength), on an update that sends it as on a create.
  for (const k of def.required) if ((creating && out[k] === undefined) || out[k] === "") throw new HttpError(400, `${k} is required and not empty`);
  return out;
}

export function shown(def: Pick<ResourceDef, "writeOnly">, r: Rec): Rec {
  const out = { ...r };
  for (const k of def.writeOnly ?? []) delete out[k];
  return out;
}

function one(app: App, def: ResourceDef, req: Req): Rec {
  const r = table(app, def, req).get(req.params[def.idParam]);
  if (!r) throw new HttpError(404, `${def.name} ${req.params[def.idParam]} not found`);
  return r;
}

export function listAnswer<T>(app: App, list: T[], query: URLSearchParams): Reply {
  const page = cursorPage(app.b, list, query, 20);
  return ok({ items: page.items, data: page.items, count: list.length, pageInfo: page.pageInfo });
}

/** The routes of one resource. */
export function resourceRoutes(def: ResourceDef): Route[] {
  const item = `${def.collection}/{${def.idParam}}`;
  const out: Route[] = [];
  // Each family's operations are rows of the table (FAMILY_OPERATIONS): the route carries the row's name.
  const route = (method: string, pattern: string, handler: Route["handler"]) =>
    out.push({ operation: matchOperation(OPERATIONS, method, pattern)!.operation.name as OperationName, handler });
  if (def.ops.list)
    route("GET", def.collection, (req, app) => {
      const term = req.query.get("search");
      const list = [...table(app, def, req).values()]
        .filter((r) =>
          app.b.searchMatches(
            (def.search ?? []).map((k) => r[k]),
            def.search ? term : null,
          ),
        )
        .map((r) => shown(def, r));
      return listAnswer(app, list, req.query);
    });
  if (def.ops.create)
    route("POST", def.collection, (req, app) => {
      const fields = readFields(def, req.body, true);
      def.validate?.(fields);
      const records = table(app, def, req);
      const now = nowIso();
      const r: Rec = { ...fields, id: newId(e14(app.store)), createdAt: now, updatedAt: now };
      records.set(String(r.id), r);
      return { status: 201, body: shown(def, r) };
    });
  if (def.ops.get) route("GET", item, (req, app) => ok(shown(def, one(app, def, req))));
  if (def.ops.update)
    route(def.ops.update, item, (req, app) => {
      const r = one(app, def, req);
      const fields = readFields(def, req.body, false);
      def.validate?.(fields);
      Object.assign(r, fields, { updatedAt: nowIso() });
      return ok(shown(def, r));
    });
  if (def.ops.remove)
    route("DELETE", item, (req, app) => {
      one(app, def, req);
      table(app, def, req).delete(req.params[def.idParam]);
      return { status: 204 };
    });
  return out;
}
