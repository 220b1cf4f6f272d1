import { matchPath } from "../../core/api/match.js";
import { QUERY_PATH } from "../routes/own-operations.js";
import { HttpError, isOperation, type App, type Fault } from "../http.js";
import { servedSpec } from "./kit/spec-document.js";
import { VERSIONS_PATH, WORKBOOKS_PATH, FOLDER_PATH, documentFolders } from "./kit/documented.js";
import { refuses } from "./kit/opt-ins.js";

/** Per reference app, the notifications made, by id, and those deleted since (fault notification-deleted-still-listed). */
const notificationsMade = new WeakMap<App, { made: Map<number, unknown>; deleted: Set<number> }>();

/** The faults of the group documented (suites/documented/): each makes a check of it fail, for the reason its `because` names. */
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
  {
    name: "deployment-delete-not-applied",
    breaks: "E14; Versioning 1",
    description: "deleting a deployment answers 204 and keeps it: the deployments list still shows it",
    because: { "documented.resources.deployment-lifecycle": "read-after-delete" },
    operations: ["deleteDeployment"],
    handle: () => ({ status: 204 }),
  },
  {
    name: "notification-deleted-still-listed",
    breaks: "E14; Versioning 1",
    description: "a deleted notification reads 404, but its list still shows it (a soft delete the list does not filter)",
    because: { "documented.resources.create-read-delete": "read-after-delete" },
    operations: ["createNotification", "deleteNotification", "listNotifications"],
    respond: ({ status, body, req, app }) => {
      const seen = notificationsMade.get(app) ?? { made: new Map<number, unknown>(), deleted: new Set<number>() };
      notificationsMade.set(app, seen);
      if (isOperation(req, "createNotification") && status < 300 && typeof body?.id === "number") seen.made.set(body.id, body);
      if (isOperation(req, "deleteNotification") && status < 300) seen.deleted.add(Number(req.params.notificationId));
      if (!isOperation(req, "listNotifications") || status !== 200 || !Array.isArray(body?.items)) return body;
      const ghosts = [...seen.deleted].filter((id) => seen.made.has(id)).map((id) => seen.made.get(id));
      return { ...body, items: [...body.items, ...ghosts], data: [...body.items, ...ghosts] };
    },
  },
  {
    name: "deployment-create-names-another",
    breaks: "E14; Versioning 1",
    description: "creating a deployment answers the id of the first deployment, not of the one it made (which the run must then never delete)",
    because: { "documented.resources.deployment-lifecycle": "read-after-create" },
    operations: ["createDeployment"],
    respond: ({ status, body, app }) => (status === 201 ? { ...body, id: app.store.deployments[0].id } : body),
  },
  refuses("merge-to-default-refused", "documented.operations.git", "mergeToDefault", "merging a branch into the default branch", "branchName"),
  refuses("user-update-refused", "documented.operations.own-user", "updateUser", "updating a user", "firstName"),
  refuses("python-run-refused", "documented.operations.own-dashboard", "runDashboardPython", "running a dashboard's Python report", "reportId"),
  refuses("file-delete-refused", "documented.operations.own-file-delete", "deleteDataModelFiles", "deleting a data-model file", "fileName"),
];
