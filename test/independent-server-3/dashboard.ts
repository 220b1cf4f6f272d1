// DashboardConfig validation and normalization (TABS_CONTAINER -> CONTAINER with layout "tabs").
import { isObj } from "./http.js";
import type { Json } from "./http.js";

export const WIDGET_TYPES = ["CHART", "TEXT", "FILTER", "AI", "TIME_GRAIN", "PARENT", "SPACER", "DIVIDER", "CONTAINER"] as const;
const ACCEPTED_TYPES: readonly string[] = [...WIDGET_TYPES, "TABS_CONTAINER"];
const BPS = ["lg", "md", "sm", "xs", "xxs"];

function isInt(v: unknown): boolean {
  return typeof v === "number" && Number.isInteger(v);
}

function checkPosition(v: unknown, at: string): string | null {
  if (!isObj(v)) return `${at} must be an object with integer x, y, w, h`;
  for (const k of ["x", "y", "w", "h"]) if (!isInt(v[k])) return `${at}.${k} must be an integer`;
  return null;
}

function checkWidget(w: unknown, at: string): string | null {
  if (!isObj(w)) return `${at} must be an object`;
  if (typeof w["id"] !== "string") return `${at}.id must be a string`;
  if (typeof w["type"] !== "string" || !ACCEPTED_TYPES.includes(w["type"])) return `${at}.type must be one of ${WIDGET_TYPES.join(", ")}`;
  const pe = checkPosition(w["position"], `${at}.position`);
  if (pe) return pe;
  const rl = w["responsiveLayouts"];
  if (rl !== undefined && rl !== null) {
    if (!isObj(rl)) return `${at}.responsiveLayouts must be an object`;
    for (const bp of BPS) {
      if (rl[bp] !== undefined && rl[bp] !== null) {
        const e = checkPosition(rl[bp], `${at}.responsiveLayouts.${bp}`);
        if (e) return e;
      }
    }
  }
  for (const k of ["config", "style"]) {
    if (w[k] !== undefined && w[k] !== null && !isObj(w[k])) return `${at}.${k} must be an object or null`;
  }
  return null;
}

function checkBpObj(v: unknown, at: string): string | null {
  if (v === undefined || v === null) return null;
  if (!isObj(v)) return `${at} must be an object`;
  for (const bp of BPS) if (v[bp] !== undefined && v[bp] !== null && !isInt(v[bp])) return `${at}.${bp} must be an integer or null`;
  return null;
}

function checkIntArray(v: unknown, at: string): string | null {
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v) || !v.every(isInt)) return `${at} must be an array of integers`;
  return null;
}

/** Returns an error message, or null when the config is a valid DashboardConfig. */
export function checkConfig(c: unknown, at = "dashboardDraft"): string | null {
  if (c === null) return null;
  if (!isObj(c)) return `${at} must be an object`;
  if (c["kind"] !== undefined && c["kind"] !== null && c["kind"] !== "CLASSIC" && c["kind"] !== "APP") return `${at}.kind must be CLASSIC or APP`;
  for (const k of ["title", "description"]) {
    if (c[k] !== undefined && c[k] !== null && typeof c[k] !== "string") return `${at}.${k} must be a string`;
  }
  for (const k of ["settings", "theme"]) {
    if (c[k] !== undefined && c[k] !== null && !isObj(c[k])) return `${at}.${k} must be an object`;
  }
  const ws = c["widgets"];
  if (ws !== undefined && ws !== null) {
    if (!Array.isArray(ws)) return `${at}.widgets must be an array`;
    for (let i = 0; i < ws.length; i++) {
      const e = checkWidget(ws[i], `${at}.widgets[${i}]`);
      if (e) return e;
    }
  }
  const l = c["layout"];
  if (l !== undefined && l !== null) {
    if (!isObj(l)) return `${at}.layout must be an object`;
    const e =
      checkBpObj(l["breakpoints"], `${at}.layout.breakpoints`) ??
      checkBpObj(l["cols"], `${at}.layout.cols`) ??
      checkIntArray(l["containerPadding"], `${at}.layout.containerPadding`) ??
      checkIntArray(l["margin"], `${at}.layout.margin`);
    if (e) return e;
    if (l["rowHeight"] !== undefined && l["rowHeight"] !== null && !isInt(l["rowHeight"])) return `${at}.layout.rowHeight must be an integer`;
  }
  const app = c["app"];
  if (app !== undefined && app !== null) {
    if (!isObj(app)) return `${at}.app must be an object`;
    const entry = app["entry"];
    if (entry !== undefined && entry !== null) {
      if (typeof entry !== "string") return `${at}.app.entry must be a string`;
      if (entry.length > 255) return `${at}.app.entry must be at most 255 characters`;
    }
    if (app["html"] !== undefined && app["html"] !== null && typeof app["html"] !== "string") return `${at}.app.html must be a string`;
    const files = app["files"];
    if (files !== undefined && files !== null) {
      if (!isObj(files) || !Object.values(files).every((v) => typeof v === "string")) return `${at}.app.files must map strings to strings`;
    }
    const mf = app["manifest"];
    if (mf !== undefined && mf !== null) {
      if (!isObj(mf)) return `${at}.app.manifest must be an object`;
      const deps = mf["dependencies"];
      if (deps !== undefined && deps !== null && (!isObj(deps) || !Object.values(deps).every((v) => typeof v === "string")))
        return `${at}.app.manifest.dependencies must map strings to strings`;
      if (mf["version"] !== undefined && mf["version"] !== null && !isInt(mf["version"])) return `${at}.app.manifest.version must be an integer`;
    }
  }
  return null;
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Deep copy with legacy TABS_CONTAINER widgets converted to tabbed CONTAINER widgets. */
export function normalizeConfig(c: Json): Json {
  const out = clone(c);
  const ws = out["widgets"];
  if (Array.isArray(ws)) {
    out["widgets"] = ws.map((w: unknown) => {
      if (isObj(w) && w["type"] === "TABS_CONTAINER") {
        const cfg = isObj(w["config"]) ? w["config"] : {};
        return { ...w, type: "CONTAINER", config: { ...cfg, layout: "tabs" } };
      }
      return w;
    });
  }
  return out;
}

/** Rewrites report references (widget config.reportId) through the given id map. */
export function remapReports(c: Json, map: Map<number, number>): Json {
  const out = clone(c);
  const ws = out["widgets"];
  if (Array.isArray(ws)) {
    for (const w of ws) {
      if (isObj(w) && isObj(w["config"])) {
        const rid = w["config"]["reportId"];
        if (typeof rid === "number" && map.has(rid)) w["config"]["reportId"] = map.get(rid);
      }
    }
  }
  return out;
}

export function reportIdsIn(c: Json): number[] {
  const ids: number[] = [];
  const ws = c["widgets"];
  if (Array.isArray(ws))
    for (const w of ws) if (isObj(w) && isObj(w["config"]) && typeof w["config"]["reportId"] === "number") ids.push(w["config"]["reportId"]);
  return ids;
}
