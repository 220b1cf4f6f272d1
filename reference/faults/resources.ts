import { laterPage } from "./kit/invariants.js";
import { eachWorkbook } from "./kit/workbooks-read.js";
import { HttpError, type Fault } from "../http.js";
import { afterClone } from "./kit/clone.js";

/** The faults of the group resources (suites/resources/): each makes a check of it fail, for the reason its `because` names. */
export const resourcesFaults: Fault[] = [
  {
    name: "clone-dashboard-names-source",
    breaks: "Resources / Dashboard (workbookId); E10",
    description: "the clone's published dashboard keeps the source's workbookId",
    feeds: ["clone.copy.full-copy"],
    because: { "resources.dashboard.names-its-workbook": "dashboard-workbook" },
    routes: ["E10"],
    handle: afterClone((clone, source) => {
      if (clone.publishedDashboard) clone.publishedDashboard.workbookId = source.id;
    }),
  },
  {
    name: "build-errors-labelled-text",
    breaks: "What the service does (request and response bodies are JSON unless stated otherwise)",
    description: "errors of the staging toggle (under /build/api/v1) keep their JSON body but are labelled text/plain",
    feeds: ["staging.request.no-such-branch-refused"],
    because: { "resources.body.json-media-type": "json-media-type" },
    routes: ["E4"],
    handle: async ({ next }) => {
      try {
        return await next();
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        return { status: err.status, text: JSON.stringify({ error: err.message }), headers: { "content-type": "text/plain; charset=utf-8" } };
      }
    },
  },
  {
    name: "workbooks-later-pages-type-notebook",
    breaks: "Resources / Workbook (type enum)",
    description: "pages of the workbooks list after the first show their first workbook with type NOTEBOOK (in items and the deprecated data alike)",
    feeds: ["workbooks.list.cursor-walk"],
    because: { "resources.schema.every-answer": "schema:WorkbooksListResponse" },
    routes: ["E8"],
    respond: ({ status, body, req }) => {
      if (status !== 200 || !laterPage(req.query) || !Array.isArray(body?.items) || !body.items.length) return body;
      const notebook = (list: any[]) => list.map((w, i) => (i === 0 ? { ...w, type: "NOTEBOOK" } : w));
      return { ...body, items: notebook(body.items), data: Array.isArray(body.data) ? notebook(body.data) : body.data };
    },
  },
  {
    name: "deployments-past-offset-created-at-date-only",
    breaks: "Resources / Deployment (created_at: ISO 8601 date-time)",
    description: "deployments listed past offset 0 carry created_at as a bare date",
    feeds: ["deployments.list.total-consistent"],
    because: { "resources.timestamps.every-answer": "timestamp" },
    routes: ["E1"],
    respond: ({ status, body, req }) => {
      if (status !== 200 || !(Number(req.query.get("offset")) > 0) || !Array.isArray(body?.data?.deployments)) return body;
      return { ...body, data: { ...body.data, deployments: body.data.deployments.map((d: any) => ({ ...d, created_at: String(d.created_at).slice(0, 10) })) } };
    },
  },
  {
    name: "token-created-at-not-iso",
    breaks: "E3; Resources / Metadata token result (created_at: ISO 8601 date-time)",
    description: "the metadata token answer gives created_at as an HTTP date (Mon, 15 Jan 2024 10:30:00 GMT)",
    feeds: ["tokens.create.schema"],
    because: { "resources.timestamps.every-answer": "timestamp" },
    routes: ["E3"],
    respond: ({ status, body }) =>
      status === 200 && body?.data?.created_at ? { ...body, data: { ...body.data, created_at: new Date(body.data.created_at).toUTCString() } } : body,
  },
  {
    name: "workbooks-widget-type-field",
    breaks: "Resources / DashboardWidget (advertised types)",
    description: "in the workbooks list, dashboard widgets carry the type FIELD, which this revision does not advertise",
    feeds: ["workbooks.list.cursor-walk"],
    because: { "resources.schema.widget-types": "widget-type" },
    routes: ["E8"],
    respond: eachWorkbook((w) =>
      Array.isArray(w.dashboardDraft?.widgets)
        ? { ...w, dashboardDraft: { ...w.dashboardDraft, widgets: w.dashboardDraft.widgets.map((x: any) => ({ ...x, type: "FIELD" })) } }
        : w,
    ),
  },
];
