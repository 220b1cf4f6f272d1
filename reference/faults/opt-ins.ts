import { type Fault, HttpError } from "../http.js";

/**
 * Faults of the operations only an object of the run's own receives, behind their opt-ins
 * (suites/documented/opt-ins.ts): each a policy around its handler, the request refused or not applied.
 */
const is = (req: { method: string; path: string }, method: string, tail: RegExp) => req.method === method && tail.test(req.path);

/** A fault that refuses one valid request with a 400 naming `field`, as a server that misreads its own document would. */
function refuses(name: string, check: string, method: string, tail: RegExp, what: string, field: string): Fault {
  return {
    name,
    breaks: "E14; Versioning 1",
    description: `${what} refuses a request valid under its document with 400 (${field})`,
    because: { [check]: "valid-request-refused" },
    routes: ["E14"],
    handle: ({ req, next }) => {
      if (is(req, method, tail)) throw new HttpError(400, `${field} is invalid`);
      return next();
    },
  };
}

export const optInFaults: Fault[] = [
  {
    name: "deployment-delete-not-applied",
    breaks: "E14; Versioning 1",
    description: "deleting a deployment answers 204 and keeps it: the deployments list still shows it",
    because: { "documented.resources.deployment-lifecycle": "read-after-delete" },
    routes: ["E14"],
    handle: ({ req, next }) => (is(req, "DELETE", /^\/api\/v1\/deployments\/[^/]+$/) ? { status: 204 } : next()),
  },
  {
    name: "deployment-create-names-another",
    breaks: "E14; Versioning 1",
    description: "creating a deployment answers the id of the first deployment, not of the one it made (which the run must then never delete)",
    because: { "documented.resources.deployment-lifecycle": "read-after-create" },
    routes: ["E14"],
    respond: ({ status, body, req, app }) =>
      status === 201 && is(req, "POST", /^\/build\/api\/v1\/deployments\/?$/) ? { ...body, id: app.store.deployments[0].id } : body,
  },
  refuses("merge-to-default-refused", "documented.operations.git", "POST", /\/merge-to-default$/, "merging a branch into the default branch", "branchName"),
  refuses("user-update-refused", "documented.operations.own-user", "PUT", /^\/api\/v1\/users\/[^/]+$/, "updating a user", "firstName"),
  refuses("python-run-refused", "documented.operations.own-dashboard", "POST", /\/python-run$/, "running a dashboard's Python report", "reportId"),
  refuses("file-delete-refused", "documented.operations.own-file-delete", "DELETE", /\/data-model\/files$/, "deleting a data-model file", "fileName"),
];
