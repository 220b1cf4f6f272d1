import { servedSpec } from "./kit/spec-document.js";
import { API_PREFIX, operation } from "../../core/api/operations.js";
import type { Fault } from "../http.js";

/** The faults of the group spec (suites/spec/): each makes a check of it fail, for the reason its `because` names. */
export const specFaults: Fault[] = [
  {
    name: "spec-advertises-tabs-container",
    breaks: "Resources / DashboardWidget; Versioning 3",
    description: "the served document still lists TABS_CONTAINER among the widget types",
    because: { "spec.document.no-tabs-container": "tabs-container-advertised" },
    routes: ["E14"],
    respond: servedSpec((doc) => doc.components.schemas.DashboardWidget.properties.type.enum.push("TABS_CONTAINER")),
  },
  {
    name: "spec-workbook-id-as-string",
    breaks: "Versioning 1; E8; E9",
    description: "the served document types a workbook's id as a string (the spec: an integer)",
    because: { "spec.document.no-breaking-drift": "breaking-drift" },
    routes: ["E14"],
    respond: servedSpec((doc) => (doc.components.schemas.Workbook.properties.id.type = "string")),
  },
  {
    name: "spec-pre-0-3-0-path",
    breaks: "Versioning 3",
    description: "the served document still writes embed tenant deletion with its trailing slash, the path 0.3.0 changed",
    because: { "spec.document.revision-paths": "pre-revision-path" },
    routes: ["E14"],
    respond: servedSpec((doc) => {
      const path = Object.keys(doc.paths).find((p) => /^\/api\/v1\/embed-tenants\/\{[^}]+\}$/.test(p) && doc.paths[p].delete);
      if (!path) return;
      doc.paths[`${path}/`] = { delete: doc.paths[path].delete };
      delete doc.paths[path].delete;
    }),
  },
  {
    name: "spec-ephemeral-ttl-kept",
    breaks: "Versioning 3",
    description: "the served document still describes ephemeralTtlSeconds, the session field 0.2.0 removed, on the embed user it writes",
    because: { "spec.document.no-removed-session-field": "removed-field-described" },
    routes: ["E14"],
    respond: servedSpec((doc) => {
      doc.components.schemas.EmbedUserWrite.properties.ephemeralTtlSeconds = { type: "integer", description: "How long the embed session lasts." };
    }),
  },
  {
    name: "spec-removed-endpoints-listed",
    breaks: "Versioning 3",
    description:
      "the served document still lists the endpoints the revision history removed: a published dashboard widget's AI thread id, the active agent region, an embed tenant's user attributes",
    because: { "spec.document.no-removed-endpoints": "removed-endpoint-listed" },
    routes: ["E14"],
    respond: servedSpec((doc) => {
      const add = (path: string, method: string, summary: string) => {
        const parameters = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: "path", required: true, schema: { type: "string" } }));
        doc.paths[path] = { [method]: { summary, parameters, responses: { "204": { description: "Done." } } } };
      };
      // Removed endpoints are no rows of the table (it holds what a server serves): their old paths,
      // as a server that kept them might spell them, under the table's control-plane prefix.
      add(`${API_PREFIX}/embed/dashboard/{publicId}/widgets/{widgetId}/ai-thread-id`, "put", "Store the AI thread id of a widget");
      add(`${API_PREFIX}/active-agent-region`, "get", "The active agent's region");
      add(`${API_PREFIX}/embed-tenants/{tenantId}/user-attributes`, "get", "List an embed tenant's user attributes");
      add(`${API_PREFIX}/embed-tenants/{tenantId}/user-attributes/{attributeId}`, "delete", "Delete an embed tenant's user attribute");
    }),
  },
  {
    name: "spec-security-api-key",
    breaks: "Authentication 1",
    description:
      "the served document declares the key as an apiKey in the Authorization header, not as HTTP bearer: clients built from it send the key without Bearer",
    because: { "spec.document.bearer-security": "bearer-scheme" },
    routes: ["E14"],
    respond: servedSpec((doc) => {
      doc.components.securitySchemes = { apiKey: { type: "apiKey", in: "header", name: "Authorization" } };
      doc.security = [{ apiKey: [] }];
    }),
  },
  {
    name: "spec-openapi-3-0",
    breaks: "Versioning 1",
    description: "the served document declares openapi 3.0.3",
    because: { "spec.document.openapi-3-1": "openapi-version" },
    routes: ["E14"],
    respond: servedSpec((doc) => (doc.openapi = "3.0.3")),
  },
  {
    name: "spec-version-0-4-0",
    breaks: "Versioning 1",
    description: "the served document carries info.version 0.4.0, its last revision's number",
    because: { "spec.document.version": "info-version" },
    routes: ["E14"],
    respond: servedSpec((doc) => (doc.info.version = "0.4.0")),
  },
  {
    name: "spec-untitled",
    breaks: "Versioning 1",
    description: "the served document's title does not name a platform API",
    because: { "spec.document.title": "title" },
    routes: ["E14"],
    respond: servedSpec((doc) => (doc.info.title = "Service")),
  },
  {
    name: "spec-dangling-ref",
    breaks: "Versioning 1; E14 (the full document)",
    description: "the E13 answer refers to a schema the document does not hold",
    because: { "spec.document.dereferences": "dangling-ref" },
    routes: ["E14"],
    respond: servedSpec(
      (doc) =>
        (doc.paths[operation("listEnvVars").path].get.responses["200"].content["application/json"].schema = {
          $ref: "#/components/schemas/EnvVarsListResponseV2",
        }),
    ),
  },
  {
    name: "spec-bulk-move-missing",
    breaks: "Versioning 1; E12",
    description: "the served document leaves out the E12 bulk-move operation",
    because: { "spec.operations.documented": "operation-missing" },
    routes: ["E14"],
    respond: servedSpec((doc) => delete doc.paths[operation("bulkMoveWorkspaceItems").path].post),
  },
];
