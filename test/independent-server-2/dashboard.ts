import { HttpError, isInt, isObj } from "./http.js";

const WIDGET_TYPES = ["CHART", "TEXT", "FILTER", "AI", "TIME_GRAIN", "PARENT", "SPACER", "DIVIDER", "CONTAINER"];
const BPS = ["lg", "md", "sm", "xs", "xxs"];
const v422 = (m: string) => new HttpError(422, m);

function pos(p: unknown, where: string): void {
  if (!isObj(p)) throw v422(`${where} must be an object`);
  for (const k of ["x", "y", "w", "h"]) if (!isInt(p[k])) throw v422(`${where}.${k} must be an integer`);
}
function bpObj(o: unknown, where: string, intOnly: boolean): void {
  if (o === null || o === undefined) return;
  if (!isObj(o)) throw v422(`${where} must be an object`);
  for (const k of BPS) {
    const v = o[k];
    if (v === undefined || v === null) continue;
    if (intOnly) {
      if (!isInt(v)) throw v422(`${where}.${k} must be an integer or null`);
    } else pos(v, `${where}.${k}`);
  }
}
const optStr = (o: Record<string, unknown>, k: string, w: string) => {
  if (o[k] !== undefined && o[k] !== null && typeof o[k] !== "string") throw v422(`${w}.${k} must be a string`);
};
const optObj = (o: Record<string, unknown>, k: string, w: string) => {
  if (o[k] !== undefined && o[k] !== null && !isObj(o[k])) throw v422(`${w}.${k} must be an object`);
};
const intArr = (v: unknown) => Array.isArray(v) && v.every(isInt);

/** Validates a DashboardConfig and returns a normalised copy (TABS_CONTAINER converted). */
export function validateConfig(c: unknown, w = "dashboardDraft"): Record<string, unknown> | null {
  if (c === null) return null;
  if (!isObj(c)) throw v422(`${w} must be an object or null`);
  const out = structuredClone(c);
  if (out["kind"] !== undefined && out["kind"] !== null && out["kind"] !== "CLASSIC" && out["kind"] !== "APP") throw v422(`${w}.kind must be CLASSIC or APP`);
  optStr(out, "title", w);
  optStr(out, "description", w);
  optObj(out, "settings", w);
  optObj(out, "theme", w);
  const L = out["layout"];
  if (L !== undefined && L !== null) {
    if (!isObj(L)) throw v422(`${w}.layout must be an object`);
    bpObj(L["breakpoints"], `${w}.layout.breakpoints`, true);
    bpObj(L["cols"], `${w}.layout.cols`, true);
    for (const k of ["containerPadding", "margin"])
      if (L[k] !== undefined && L[k] !== null && !intArr(L[k])) throw v422(`${w}.layout.${k} must be an array of integers`);
    if (L["rowHeight"] !== undefined && L["rowHeight"] !== null && !isInt(L["rowHeight"])) throw v422(`${w}.layout.rowHeight must be an integer`);
  }
  const A = out["app"];
  if (A !== undefined && A !== null) {
    if (!isObj(A)) throw v422(`${w}.app must be an object`);
    optStr(A, "entry", `${w}.app`);
    optStr(A, "html", `${w}.app`);
    if (typeof A["entry"] === "string" && A["entry"].length > 255) throw v422(`${w}.app.entry exceeds 255 characters`);
    if (A["files"] !== undefined && A["files"] !== null && (!isObj(A["files"]) || !Object.values(A["files"]).every((x) => typeof x === "string")))
      throw v422(`${w}.app.files must map strings to strings`);
    const M = A["manifest"];
    if (M !== undefined && M !== null) {
      if (!isObj(M)) throw v422(`${w}.app.manifest must be an object`);
      if (M["version"] !== undefined && M["version"] !== null && !isInt(M["version"])) throw v422(`${w}.app.manifest.version must be an integer`);
      const D = M["dependencies"];
      if (D !== undefined && D !== null && (!isObj(D) || !Object.values(D).every((x) => typeof x === "string")))
        throw v422(`${w}.app.manifest.dependencies must map strings to strings`);
    }
  }
  const W = out["widgets"];
  if (W !== undefined && W !== null) {
    if (!Array.isArray(W)) throw v422(`${w}.widgets must be an array`);
    W.forEach((x, i) => {
      const ww = `${w}.widgets[${i}]`;
      if (!isObj(x)) throw v422(`${ww} must be an object`);
      if (typeof x["id"] !== "string") throw v422(`${ww}.id must be a string`);
      if (x["type"] === "TABS_CONTAINER") {
        x["type"] = "CONTAINER";
        x["config"] = { ...(isObj(x["config"]) ? x["config"] : {}), layout: "tabs" };
      }
      if (typeof x["type"] !== "string" || !WIDGET_TYPES.includes(x["type"])) throw v422(`${ww}.type must be one of ${WIDGET_TYPES.join(", ")}`);
      pos(x["position"], `${ww}.position`);
      bpObj(x["responsiveLayouts"], `${ww}.responsiveLayouts`, false);
      optObj(x, "config", ww);
      optObj(x, "style", ww);
    });
  }
  return out;
}

/** Rewrites report references (config.reportId) inside a dashboard config. */
export function remapConfig(c: Record<string, unknown> | null, map: Map<number, number>): Record<string, unknown> | null {
  if (!c) return c;
  const out = structuredClone(c);
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      v.forEach(walk);
      return;
    }
    if (!isObj(v)) return;
    for (const [k, x] of Object.entries(v)) {
      if (k === "reportId" && typeof x === "number" && map.has(x)) v[k] = map.get(x);
      else if (k === "reportIds" && Array.isArray(x)) v[k] = x.map((y) => (typeof y === "number" && map.has(y) ? map.get(y) : y));
      else walk(x);
    }
  };
  walk(out);
  return out;
}
