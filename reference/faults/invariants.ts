import type { Fault } from "../http.js";
import { HttpError } from "../http.js";

/**
 * Faults of the rules that hold for every answer (suites/<group>/, each in its group's folder). Each breaks its rule only
 * where no example check looks (a later page, the deprecated copy, the settings, the moved
 * records, cleanup), so that only the invariant, fed by the checks of `feeds`, catches it.
 */
const laterPage = (query: URLSearchParams) => query.has("after");
/** A page of a walk at a small page size (the masking properties read the list at 100). */
const smallLaterPage = (query: URLSearchParams) => laterPage(query) && Number(query.get("first")) < 20;

export const invariantFaults: Fault[] = [
  {
    name: "end-cursor-repeats-on-every-list",
    breaks: "Pagination styles 2; E8",
    description: "on the workbooks list, a page after the first answers the cursor it was asked with as its endCursor: a walk never ends",
    because: { "workbooks.list.cursor-walk": "walk:repeated-cursor" },
    routes: ["E8"],
    respond: ({ status, body, req }) =>
      status === 200 && laterPage(req.query) && body?.pageInfo ? { ...body, pageInfo: { ...body.pageInfo, endCursor: req.query.get("after") } } : body,
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
    name: "settings-show-env-vars",
    breaks: "E14 (settings: secrets excluded); Resources / Environment variable",
    description: "the deployment settings carry the deployment's environment variables with their stored values, secrets in clear",
    feeds: ["env-vars.put.listed"],
    because: { "env-vars.mask.every-answer": "secret-leaked" },
    operations: ["getDeploymentSettings"],
    respond: ({ status, body, req, app }) => {
      if (status !== 200) return body;
      const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
      return { ...body, environmentVariables: dep?.envVars.map((v) => ({ ...v })) ?? [] };
    },
  },
  {
    name: "env-vars-later-pages-unmasked",
    breaks: "E13; Resources / Environment variable",
    description: "pages of the variables list after the first, at a page size under 20, show secret-named values in clear, in items and data alike",
    feeds: ["env-vars.cursor.complete"],
    because: { "env-vars.mask.every-answer": "secret-unmasked" },
    routes: ["E13"],
    respond: ({ status, body, req, app }) => {
      if (status !== 200 || !smallLaterPage(req.query)) return body;
      const stored = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId)?.envVars ?? [];
      const clear = (list: any[]) => list.map((v) => ({ ...v, value: stored.find((s) => s.name === v.name)?.value ?? v.value }));
      return { ...body, items: clear(body.items), data: clear(body.data) };
    },
  },
  {
    name: "workbooks-later-pages-other-deployment",
    breaks: "E8; Resources / Workbook (deploymentId)",
    description: "pages of the workbooks list after the first name the next deployment as the deploymentId of their last workbook (in items and data alike)",
    feeds: ["workbooks.list.cursor-walk"],
    because: { "deployments.scoping.every-answer": "other-deployment" },
    routes: ["E8"],
    respond: ({ status, body, req }) => {
      if (status !== 200 || !laterPage(req.query) || !Array.isArray(body?.items) || !body.items.length) return body;
      const last = body.items.length - 1;
      const moved = (list: any[]) => list.map((w, i) => (i === last ? { ...w, deploymentId: Number(w.deploymentId) + 1 } : w));
      return { ...body, items: moved(body.items), data: Array.isArray(body.data) ? moved(body.data) : body.data };
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
    name: "bulk-delete-answers-500-after-deleting",
    breaks: "Errors 2",
    description: "the bulk delete the suite's cleanup uses deletes what it is asked to, then answers 500",
    feeds: ["upsert.create.absent-slug-creates"],
    because: { "errors.no-5xx.every-exchange": "server-error" },
    operations: ["bulkDeleteWorkspaceItems"],
    respond: ({ status, body }) => {
      if (status === 200 && Array.isArray(body?.deleted) && body.deleted.length) throw new HttpError(500, "internal error");
      return body;
    },
  },
  // The rule of the scenario maker of env-vars.mask.every-answer.
  {
    name: "env-vars-put-keeps-first-only",
    breaks: "E13; E14 (PUT env-vars)",
    description: "PUT env-vars answers 200 but keeps only the first variable of its batch; the others are dropped",
    because: { "env-vars.put.listed": "listed-once" },
    operations: ["setEnvVars"],
    respond: ({ status, body, req, app }) => {
      const sent = req.body?.env_variables;
      if (status !== 200 || !Array.isArray(sent)) return body;
      const dropped = new Set(sent.slice(1).map((v: any) => v?.name));
      const dep = app.store.deployments.find((d) => String(d.id) === req.params.deploymentId);
      if (dep) dep.envVars = dep.envVars.filter((v) => !dropped.has(v.name));
      const kept = (list: any) => (Array.isArray(list) ? list.filter((v: any) => !dropped.has(v?.name)) : list);
      return { ...body, items: kept(body.items), data: kept(body.data) };
    },
  },
];
