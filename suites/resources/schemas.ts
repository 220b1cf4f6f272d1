import { invariant } from "../../core/run/invariants.js";
import { typedAnswer } from "../../core/api/typed-answers.js";
import { dashboardConfigsOf, recordsOf } from "../lib/records.js";

/** Schema conformance, enums included (Schemas.validate: all but the growing widget types), of every answer the spec types. */
export const schemaConformance = invariant({
  id: "resources.schema.every-answer",
  spec: "Resources / Workbook, Dashboard, DashboardConfig, DashboardWidget, ReportSnapshot, Environment, Deployment, Branch, Deployment version entry, Environment variable, PageInfo, Metadata token result, Workspace item reference; E1–E5; E8–E13",
  level: "MUST",
  title: "Every answer the spec types (each spec'd route and status) matches its schema, enum values included, on every page, copy and write answer of the run",
  applicable: "a body the spec types (a 200 of E1-E13, a 409 of E11)",
  watch: (schemas) => (x) => {
    const typed = typedAnswer(x.method, x.url.pathname, x.status);
    if (!typed) return undefined;
    if (!x.isJson)
      return {
        reason: `schema:${typed.schema}`,
        message: `${typed.endpoint} answered ${x.status} without a JSON body`,
        expected: `a JSON ${typed.schema}`,
        got: `${x.text.slice(0, 120)}`,
      };
    const { errors, timestampsOnly } = schemas.check(typed.schema, x.body);
    if (!errors.length) return "held";
    return {
      reason: timestampsOnly ? "timestamp" : `schema:${typed.schema}`,
      // One defect per endpoint and status: the bodies a run generates break a schema at ever other places for one cause.
      defect: `${x.method} ${typed.endpoint} ${x.status}`,
      message: `the ${typed.endpoint} answer does not match the ${typed.schema} schema`,
      expected: `a valid ${typed.schema}`,
      got: errors.slice(0, 8).join("; "),
    };
  },
});

/**
 * Widget types are the one enum the revision history shows growing (0.4.0 replaced TABS_CONTAINER
 * by four types): an unadvertised one is a SHOULD finding, not a broken contract.
 */
export const widgetTypes = invariant({
  id: "resources.schema.widget-types",
  spec: "Resources / DashboardWidget (type enum; Versioning 3 shows it growing)",
  level: "SHOULD",
  title: "Every dashboard widget of every typed answer has one of this revision's advertised types",
  applicable: "a dashboard widget in a typed answer",
  watch: (schemas) => {
    const advertised = new Set<unknown>(schemas.schema("DashboardWidget").properties.type.enum);
    return (x) => {
      const typed = x.isJson ? typedAnswer(x.method, x.url.pathname, x.status) : undefined;
      if (!typed) return undefined;
      const types = recordsOf(typed.schema, x.body)
        .flatMap(dashboardConfigsOf)
        .flatMap((c) => (Array.isArray(c.widgets) ? c.widgets : []))
        .map((w: any) => w?.type);
      if (!types.length) return undefined;
      const odd = [...new Set(types.filter((t) => !advertised.has(t)))];
      return odd.length
        ? {
            reason: "widget-type",
            message: "a widget has a type this revision does not advertise",
            expected: [...advertised].join(", "),
            got: odd.map((t) => JSON.stringify(t)).join(", "),
          }
        : "held";
    };
  },
});
