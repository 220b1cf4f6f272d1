import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ValidateFunction } from "ajv";
import { ajv2020 } from "../core/api/ajv.js";
import { schemasDir } from "../core/api/paths.js";

/** Resources / DashboardWidget: the advertised widget types. */
export const WIDGET_TYPES: readonly string[] = ["CHART", "TEXT", "FILTER", "AI", "TIME_GRAIN", "PARENT", "SPACER", "DIVIDER", "CONTAINER"];

/** The former tabbed container: no longer advertised, still accepted and converted. */
export const LEGACY_TABS = "TABS_CONTAINER";

const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);

let dashboardConfig: ValidateFunction | undefined;

/** Resources / DashboardConfig as the bundled schemas state it, every nested field included; compiled once. */
function conformsToDashboardConfig(draft: unknown): boolean {
  if (!dashboardConfig) {
    // The project's own schemas, checked against the meta-schema by test/schemas.test.ts, not at each start.
    const ajv = ajv2020({ strict: false, validateSchema: false });
    for (const file of readdirSync(schemasDir).filter((f) => f.endsWith(".schema.json")))
      ajv.addSchema(JSON.parse(readFileSync(join(schemasDir, file), "utf8")), file);
    dashboardConfig = ajv.getSchema("DashboardConfig.schema.json")!;
  }
  return dashboardConfig(draft) as boolean;
}

/**
 * What is wrong with a sent dashboard draft (DashboardConfig), or undefined when nothing is: the
 * widgets' own rules first (with a message that names the widget), then every other field.
 */
export function draftProblem(draft: unknown, acceptedTypes: readonly string[]): string | undefined {
  const problem = widgetProblem(draft, acceptedTypes);
  if (problem || draft === null) return problem;
  return conformsToDashboardConfig(convertLegacyWidgets(draft))
    ? undefined
    : `dashboardDraft does not match DashboardConfig: ${dashboardConfig!.errors?.map((e) => `${e.instancePath} ${e.message}`).join("; ")}`;
}

/** The widgets' rules alone: id, an accepted type, an integer position, an object config. */
export function widgetProblem(draft: unknown, acceptedTypes: readonly string[]): string | undefined {
  if (draft === null) return undefined;
  if (!isObject(draft)) return "dashboardDraft must be an object or null";
  const widgets = draft.widgets;
  if (widgets === undefined || widgets === null) return undefined;
  if (!Array.isArray(widgets)) return "dashboardDraft.widgets must be an array";
  for (const [i, w] of widgets.entries()) {
    const where = `dashboardDraft.widgets[${i}]`;
    if (!isObject(w)) return `${where} must be an object`;
    if (typeof w.id !== "string") return `${where}.id must be a string`;
    if (!acceptedTypes.includes(w.type)) return `${where}.type ${JSON.stringify(w.type)} is not a widget type`;
    const p = w.position;
    if (!isObject(p) || !["x", "y", "w", "h"].every((k) => Number.isInteger(p[k]))) return `${where}.position must be {x, y, w, h} integers`;
    if (w.config !== undefined && w.config !== null && !isObject(w.config)) return `${where}.config must be an object or null`;
  }
  return undefined;
}

/** A valid draft with every TABS_CONTAINER turned into a CONTAINER with config.layout "tabs". */
export function convertLegacyWidgets(draft: any): any {
  if (!isObject(draft) || !Array.isArray(draft.widgets)) return draft;
  return {
    ...draft,
    widgets: draft.widgets.map((w: any) => (w?.type === LEGACY_TABS ? { ...w, type: "CONTAINER", config: { ...(w.config ?? {}), layout: "tabs" } } : w)),
  };
}

/** Rewrites, in place, every widget's config.reportId through `to`. */
export function rewriteWidgetReportIds(config: any, to: (reportId: number) => number): void {
  if (!isObject(config) || !Array.isArray(config.widgets)) return;
  for (const w of config.widgets) if (isObject(w?.config) && typeof w.config.reportId === "number") w.config.reportId = to(w.config.reportId);
}
