import { HttpError, ok, type App, type Route } from "../http.js";
import type { BranchRecord, DeploymentRecord } from "../store.js";
import { deploymentOf } from "./common.js";

/**
 * The branch a body names by branchName, branchId or both (both must name the same one); a body
 * naming neither names none, none is implied. A branch the deployment does not have is a 404
 * (published docs).
 */
function namedBranch(app: App, dep: DeploymentRecord, name: string | undefined, id: number | undefined): BranchRecord {
  if (name === undefined && id === undefined) throw new HttpError(400, "name the branch with branchName or branchId");
  const byName = name === undefined ? undefined : dep.branches.find((b) => b.name === name);
  const byId = id === undefined ? undefined : app.b.branchWithId(dep.branches, id);
  if (name !== undefined && !byName) throw new HttpError(404, `branch ${name} not found`);
  if (id !== undefined && !byId) throw new HttpError(404, `branch ${id} not found`);
  if (byName && byId && byName !== byId) throw new HttpError(400, "branchName and branchId name different branches");
  return (byName ?? byId)!;
}

export const stagingRoutes: Route[] = [
  {
    operation: "setStagingEnvironment",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const body = req.body;
      if (typeof body !== "object" || body === null || Array.isArray(body)) throw new HttpError(400, "the body must be a JSON object");
      const { enabled, branchName, branchId } = body;
      if (typeof enabled !== "boolean") throw new HttpError(400, "enabled must be a boolean");
      if (branchName !== undefined && typeof branchName !== "string") throw new HttpError(400, "branchName must be a string");
      if (branchId !== undefined && !Number.isSafeInteger(branchId)) throw new HttpError(400, "branchId must be an integer");
      const branch = namedBranch(app, dep, branchName, branchId);
      // Switching off needs only an existing branch (States table); switching on, a shared one.
      if (enabled && !app.b.stagingAllowed(branch))
        throw new HttpError(400, `only a shared branch can have an always-on staging environment; ${branch.name} is a ${branch.kind} branch`);
      // The States table: the flag becomes what the request asks, whatever it was.
      branch.isStagingEnvironmentEnabled = enabled;
      const { id, name, parentBranch, lastHash, isStagingEnvironmentEnabled } = branch;
      return ok({ data: { id, name, parentBranch, lastHash, isStagingEnvironmentEnabled } });
    },
  },
];
