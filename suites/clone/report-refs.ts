import type { Workbook } from "../../core/api/schema-types.js";
import type { Api } from "../../core/transport/api.js";
import { walkCursor } from "../../core/transport/pagination.js";
import { pathTo } from "../../core/transport/client.js";
import { isObject } from "../lib/values.js";

/**
 * Report references of a dashboard (E10 rule 2). Where a widget keeps the report it shows is not
 * shown: under any key of its config, at any depth, as a number or a string of digits, alone or in
 * an array. A reference is therefore found by value, not by key: a leaf of a widget's config that
 * equals the id of a report the server knows (a report snapshot's `reportId`, typed; a REPORT item
 * of E8). A clone is then read at the places the source holds its references, whatever they are
 * called.
 */

/** Where a leaf sits: keys and array indexes from the dashboard config down. */
export type RefPath = (string | number)[];

/** The id a leaf spells: a safe integer, or a string of digits. */
function idOf(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isSafeInteger(v)) return v;
  if (typeof v === "string" && /^\d{1,15}$/.test(v)) return Number(v);
  return undefined;
}

/** The report ids every source of truth names: snapshots of the published dashboards given, and REPORT items of E8. */
export async function knownReportIds(api: Api, dep: string, dashboards: unknown[]): Promise<Set<number>> {
  const known = new Set<number>();
  for (const d of dashboards)
    for (const s of isObject(d) && Array.isArray(d.reportSnapshots) ? d.reportSnapshots : []) if (typeof s?.reportId === "number") known.add(s.reportId);
  const walk = await walkCursor<Workbook>(api, pathTo("listWorkbooks", { deploymentId: dep }), { first: 100 });
  for (const item of walk.items) if (item?.type === "REPORT" && typeof item.id === "number") known.add(item.id);
  return known;
}

/** The places in a dashboard config's widget configs that hold a known report id, in document order. */
export function reportRefPaths(config: unknown, known: Set<number>): RefPath[] {
  const out: RefPath[] = [];
  const walk = (v: unknown, path: RefPath): void => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (isObject(v)) for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
    else if (idOf(v) !== undefined && known.has(idOf(v)!)) out.push(path);
  };
  const widgets = isObject(config) && Array.isArray(config.widgets) ? config.widgets : [];
  widgets.forEach((w: unknown, i: number) => isObject(w) && walk(w.config, ["widgets", i, "config"]));
  return out;
}

/** The ids a config holds at `paths` (those that hold one). */
export function idsAt(config: unknown, paths: RefPath[]): number[] {
  return paths.map((p) => idOf(p.reduce<any>((v, k) => v?.[k], config))).filter((id): id is number => id !== undefined);
}

/** `config` with a placeholder at each of `paths`: configs equal apart from which reports they name. */
export const withRefsHidden = (config: unknown, paths: RefPath[]): unknown => withRefsTo(config, paths, "<report>");

/** `config` naming `report` at each of `paths`. */
function withRefsTo(config: unknown, paths: RefPath[], report: unknown): unknown {
  if (config === null || typeof config !== "object") return config;
  const out = structuredClone(config) as any;
  for (const p of paths) {
    const parent = p.slice(0, -1).reduce<any>((v, k) => v?.[k], out);
    if (parent && typeof parent === "object" && p.at(-1)! in parent) parent[p.at(-1)!] = report;
  }
  return out;
}

/** A published dashboard's references: its snapshots' report ids and the ids at `paths` of its config. */
export function dashboardReportIds(dashboard: any, paths: RefPath[]): number[] {
  const snapshots: any[] = Array.isArray(dashboard?.reportSnapshots) ? dashboard.reportSnapshots : [];
  return [...snapshots.map((s) => s?.reportId).filter((id): id is number => typeof id === "number"), ...idsAt(dashboard?.config, paths)];
}
