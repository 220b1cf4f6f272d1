import { matchPath } from "../core/api/match.js";
import { type OperationName, operation } from "../core/api/operations.js";
import { devModeOf, e14 } from "./e14/state.js";
import { type App, HttpError, type Req } from "./http.js";
import type { Store } from "./store.js";
import type { Variant } from "./variant.js";

/**
 * Dev mode held per caller, on one branch at a time (the spec leaves its scope open; the third
 * independent server chooses this): starting it on a branch ends the caller's session elsewhere,
 * a data-model write lands only on the caller's own dev-mode branch (another caller's session on
 * that branch does not count), and a request naming no branch works on the caller's session.
 * The clean reference keeps, per branch, the last caller who started it, and any session lets
 * anyone write there. The variant keeps its sessions beside that state, seeded from it.
 */

type Sessions = Map<number, string>;
const sessionsByStore = new WeakMap<Store, Map<number, Sessions>>();

/** Each caller's one dev-mode branch in a deployment: at first the last branch the clean state gives it. */
function sessionsOf(app: App, depId: number): Sessions {
  let byDep = sessionsByStore.get(app.store);
  if (!byDep) sessionsByStore.set(app.store, (byDep = new Map()));
  let sessions = byDep.get(depId);
  if (!sessions) {
    sessions = new Map();
    for (const [branch, user] of devModeOf(e14(app.store), depId)) sessions.set(user, branch);
    byDep.set(depId, sessions);
  }
  return sessions;
}

const at = (name: OperationName, req: Req) => {
  const op = operation(name);
  return req.method === op.method && matchPath(op.path, req.path) !== undefined;
};
const WRITES: OperationName[] = ["writeDataModelFiles", "deleteDataModelFiles", "renameDataModelFiles", "startUpload"];
const BRANCH_SCOPED: OperationName[] = [...WRITES, "listDataModelFiles", "validateDataModel", "getFileHashes", "startDevMode", "stopDevMode"];

const depIdOf = (req: Req) => (/^\d+$/.test(req.params.deploymentId ?? "") ? Number(req.params.deploymentId) : undefined);
const namedBranch = (req: Req): string | undefined =>
  req.query.get("branchName") ?? (typeof req.body?.branchName === "string" ? req.body.branchName : undefined);

export const devModePerCaller: Variant = {
  name: "dev-mode-per-caller",
  description:
    "Dev mode is held per caller, on one branch at a time (its scope is not shown): starting it on a branch ends the caller's session on any other, data-model files are written only on the caller's own dev-mode branch, and a request naming no branch works on it",
  routes: ["E14"],
  request: (req, app) => {
    const depId = depIdOf(req);
    if (depId === undefined || !BRANCH_SCOPED.some((name) => at(name, req))) return;
    const sessions = sessionsOf(app, depId);
    const own = sessions.get(req.user.id);
    // A request that names no branch works on the caller's own session (else production), never on a branch another caller started last.
    const production = app.store.deployments.find((d) => d.id === depId)?.branches.find((b) => b.kind === "production")?.name;
    const fallback = own ?? production;
    if (namedBranch(req) === undefined && fallback !== undefined) req.query.set("branchName", fallback);
    const branch = namedBranch(req);
    const held = branch !== undefined && own === branch;
    if (WRITES.some((name) => at(name, req)) && !held)
      throw new HttpError(400, `branch ${branch ?? "(none)"} is not in your dev mode: data-model files are written only on your dev-mode branch`);
    if (at("stopDevMode", req) && !held) throw new HttpError(400, `branch ${branch ?? "(none)"} is not in your dev mode`);
    // Another caller's stop may have cleared the branch in the shared state: the caller's session still holds it.
    if (held) devModeOf(e14(app.store), depId).set(branch, devModeOf(e14(app.store), depId).get(branch) ?? req.user.id);
  },
  respond: (body, req, app) => {
    const depId = depIdOf(req);
    if (depId === undefined) return body;
    const sessions = sessionsOf(app, depId);
    if (at("startDevMode", req) && typeof body?.branchName === "string") sessions.set(req.user.id, body.branchName);
    if (at("stopDevMode", req) && sessions.get(req.user.id) === body?.branchName) sessions.delete(req.user.id);
    if (at("createBranch", req) && req.body?.activate === true && typeof body?.name === "string") sessions.set(req.user.id, body.name);
    if (at("deleteBranch", req) && typeof body?.deleted === "string") for (const [user, branch] of sessions) if (branch === body.deleted) sessions.delete(user);
    return body;
  },
};
