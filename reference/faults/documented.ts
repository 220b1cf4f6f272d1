import { matchPath } from "../../core/api/match.js";
import { operation } from "../../core/api/operations.js";
import { cleanBehaviour } from "../behaviour.js";
import type { Fault } from "../http.js";
import { HttpError } from "../http.js";
import { servedSpec } from "./spec-document.js";
import { QUERY_PATH } from "../routes/own-operations.js";

const CLONE_PATH = operation("duplicateWorkbook").path;
const VERSIONS_PATH = operation("listVersions").path;
const WORKBOOKS_PATH = operation("listWorkbooks").path;
const FOLDERS_PATH = operation("listFolders").path;
/** A folder by its id: the path of its delete (the table has no read of one). */
const FOLDER_PATH = operation("deleteFolder").path;

/** Faults of the rules every operation shares (Authentication 1) and of the served document's own contract (E14; Versioning 1). */
export const documentedFaults: Fault[] = [
  {
    name: "own-query-refuses-valid-body",
    breaks: "E14; Versioning 1",
    description: "the server's own query operation (not in the spec) refuses a body its document calls valid: it wants a `measures` list in the query",
    because: { "documented.operations.unnamed": "valid-request-refused" },
    routes: ["E14"],
    handle: ({ req, next }) => {
      if (req.method === "POST" && matchPath(QUERY_PATH, req.path) && !Array.isArray(req.body?.query?.measures))
        throw new HttpError(400, "query.measures is required");
      return next();
    },
  },
  {
    name: "auth-writes-unchecked",
    breaks: "Authentication 1",
    description: "only reads check the key: a write without a valid key runs as the account's first user",
    because: { "auth.reject.every-operation": "served" },
    behaviour: {
      authenticate: (header, store, request) =>
        cleanBehaviour.authenticate(header, store) ?? (request && request.method !== "GET" ? store.users[0] : undefined),
    },
  },
  {
    name: "auth-undocumented-clone-unchecked",
    breaks: "Authentication 1; E10",
    description: "the served document leaves out E10, and E10 serves a request without a valid key",
    because: { "auth.reject.every-operation": "served" },
    routes: ["E14"],
    respond: servedSpec((doc) => delete doc.paths[CLONE_PATH]),
    behaviour: {
      authenticate: (header, store, request) =>
        cleanBehaviour.authenticate(header, store) ?? (request?.operation === "duplicateWorkbook" ? store.users[0] : undefined),
    },
  },
  {
    name: "spec-advertises-tabs-container",
    breaks: "Resources / DashboardWidget; Versioning 3",
    description: "the served document still lists TABS_CONTAINER among the widget types",
    because: { "spec.document.no-tabs-container": "tabs-container-advertised" },
    routes: ["E14"],
    respond: servedSpec((doc) => doc.components.schemas.DashboardWidget.properties.type.enum.push("TABS_CONTAINER")),
  },
  {
    name: "spec-documents-versions-as-201",
    breaks: "E14; Versioning 1",
    description: "the served document says E5 answers 201; the server answers 200",
    because: { "documented.reads.match-document": "undocumented-status" },
    routes: ["E14"],
    respond: servedSpec((doc) => {
      const responses = doc.paths[VERSIONS_PATH].get.responses;
      responses["201"] = responses["200"];
      delete responses["200"];
    }),
  },
  {
    name: "spec-documents-unserved-version-field",
    breaks: "E14; Versioning 1",
    description: "the served document requires a field `channelUrl` in every version entry, which the server never sends",
    because: { "documented.reads.match-document": "schema" },
    routes: ["E14"],
    respond: servedSpec((doc) => {
      const entry = doc.components.schemas.DeploymentVersion;
      entry.properties.channelUrl = { type: "string" };
      entry.required.push("channelUrl");
    }),
  },
  {
    name: "spec-documents-unenforced-page-maximum",
    breaks: "E14; Versioning 1",
    description: "the served document bounds E8's `first` at 5, which the server neither enforces nor applies (first=6 answers 6 items)",
    because: { "documented.reads.invalid-query-refused": "accepted" },
    routes: ["E14"],
    respond: servedSpec((doc) => {
      for (const p of doc.paths[WORKBOOKS_PATH].get.parameters) if (p.name === "first") p.schema = { ...p.schema, maximum: 5 };
    }),
  },
  {
    name: "unsupported-method-answered-403",
    breaks: "E14; Versioning 1",
    description: "a method a path does not take is answered 403, as if the caller lacked access, not 405",
    because: { "documented.methods.unsupported-405": "not-405" },
    behaviour: { unsupportedMethod: () => ({ status: 403, message: "not allowed" }) },
  },
  {
    name: "405-without-allow",
    breaks: "E14; Versioning 1",
    description: "a method a path does not take is answered 405 with no Allow header (RFC 9110, 15.5.6)",
    because: { "documented.methods.allow-header": "allow-missing" },
    behaviour: { unsupportedMethod: (method) => ({ status: 405, message: `${method} is not allowed here` }) },
  },
  {
    name: "405-allow-names-get-only",
    breaks: "E14; Versioning 1",
    description: "a 405's Allow names GET alone, whatever else the path takes",
    because: { "documented.methods.allow-header": "allow-incomplete" },
    behaviour: { unsupportedMethod: (method) => ({ status: 405, message: `${method} is not allowed here`, allow: ["GET"] }) },
  },
  {
    name: "spec-documents-unreadable-folders",
    breaks: "E14; Versioning 1",
    description: "the served document links a folder's create to a read by id that answers 404",
    because: { "documented.resources.create-read-delete": "read-after-create" },
    routes: ["E14"],
    respond: (r) => {
      if (r.req.method === "GET" && matchPath(FOLDER_PATH, r.req.path)) throw new HttpError(404, "no such folder");
      return documentFolders({})(r);
    },
  },
  {
    name: "spec-documents-unenforced-folder-name-length",
    breaks: "E14; Versioning 1",
    description: "the served document bounds a new folder's name at 20 characters, which the server does not enforce",
    because: { "documented.resources.invalid-body-refused": "applied" },
    routes: ["E14"],
    respond: documentFolders({ maxLength: 20 }),
  },
];

export const driftFaults: Fault[] = [
  {
    name: "spec-workbook-id-as-string",
    breaks: "Versioning 1; E8; E9",
    description: "the served document types a workbook's id as a string (the spec: an integer)",
    because: { "spec.document.no-breaking-drift": "breaking-drift" },
    routes: ["E14"],
    respond: servedSpec((doc) => (doc.components.schemas.Workbook.properties.id.type = "string")),
  },
];

/**
 * The served document with the folders create (which the reference serves) documented, linked to
 * a read of one folder by id, a path the reference does not serve (a folder is removed by the run's
 * workspace cleanup all the same).
 */
function documentFolders(opts: { maxLength?: number }): NonNullable<Fault["respond"]> {
  return servedSpec((doc) => {
    const name = { type: "string", minLength: 1, ...(opts.maxLength ? { maxLength: opts.maxLength } : {}) };
    const folder = { type: "object", required: ["id", "name"], properties: { id: { type: "integer" }, name: { type: "string" } } };
    doc.paths[FOLDERS_PATH] = {
      ...doc.paths[FOLDERS_PATH],
      post: {
        operationId: "cfCreateFolder",
        parameters: [{ name: "deploymentId", in: "path", required: true, schema: { type: "string" } }],
        requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["name"], properties: { name } } } } },
        responses: {
          "200": {
            description: "the folder",
            content: { "application/json": { schema: folder } },
            links: { read: { operationId: "cfGetFolder", parameters: { folderId: "$response.body#/id" } } },
          },
          "400": { description: "invalid" },
        },
      },
    };
    doc.paths[`${FOLDERS_PATH}/{folderId}`] = {
      get: {
        operationId: "cfGetFolder",
        parameters: [
          { name: "deploymentId", in: "path", required: true, schema: { type: "string" } },
          { name: "folderId", in: "path", required: true, schema: { type: "integer" } },
        ],
        responses: { "200": { description: "the folder", content: { "application/json": { schema: folder } } } },
      },
    };
  });
}
