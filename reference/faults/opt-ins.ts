import type { CheckId } from "../../core/model/ids.js";
import type { OperationName } from "../../core/api/operations.js";
import { type Fault, HttpError } from "../http.js";

/**
 * Faults of the operations only an object of the run's own receives, behind their opt-ins
 * (suites/documented/opt-ins.ts): each a policy around its handler, the request refused or not applied.
 */
/** A fault that refuses one valid request with a 400 naming `field`, as a server that misreads its own document would. */
function refuses(name: string, check: CheckId, operation: OperationName, what: string, field: string): Fault {
  return {
    name,
    breaks: "E14; Versioning 1",
    description: `${what} refuses a request valid under its document with 400 (${field})`,
    because: { [check]: "valid-request-refused" },
    operations: [operation],
    handle: () => {
      throw new HttpError(400, `${field} is invalid`);
    },
  };
}

export const optInFaults: Fault[] = [
  {
    name: "deployment-delete-not-applied",
    breaks: "E14; Versioning 1",
    description: "deleting a deployment answers 204 and keeps it: the deployments list still shows it",
    because: { "documented.resources.deployment-lifecycle": "read-after-delete" },
    operations: ["deleteDeployment"],
    handle: () => ({ status: 204 }),
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
