// Branches (list/get/create/delete) and dev mode (held per user, one branch at a time per deployment).
import { randomBytes } from "node:crypto";
import { deploymentFor, requireApiKey, requireRole } from "./auth.js";
import type { Principal } from "./auth.js";
import type { AppRouter, Call } from "./ctx.js";
import { bad, conflict, created, fBool, fStr, forbidden, invalid, notFound, objBody, ok, qBool, wrap } from "./http.js";
import type { Reply } from "./http.js";
import { listBody, noOffset } from "./paging.js";
import { branchJson } from "./serialize.js";
import type { Branch, Deployment, Store } from "./store.js";

export const BRANCH_NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/;

function byNewest(a: Branch, b: Branch): number {
  return a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id - a.id;
}

function listBranches(c: Call): Reply {
  requireApiKey(c.p);
  noOffset(c.q);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const all = c.store.branchesOf(d.id).sort(byNewest).map(branchJson);
  return ok(listBody(all, c.q, `branches:${d.id}`));
}

function getBranch(c: Call): Reply {
  requireApiKey(c.p);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const raw = c.params["branchId"] ?? "";
  const b = /^\d+$/.test(raw) ? c.store.branchesOf(d.id).find((x) => x.id === Number(raw)) : undefined;
  if (!b) throw notFound(`branch ${raw} not found`);
  return wrap(branchJson(b));
}

function copyBranch(store: Store, d: Deployment, name: string, from: Branch, kind: Branch["kind"], ownerUserId?: number): Branch {
  const b: Branch = {
    id: store.ids.branch.take(),
    deploymentId: d.id,
    name,
    kind,
    ownerUserId,
    parentBranch: from.name,
    lastHash: from.lastHash,
    staging: false,
    createdAt: new Date().toISOString(),
    files: new Map([...from.files].map(([k, v]) => [k, { ...v }])),
    buildStatus: "queued",
  };
  store.branches.push(b);
  return b;
}

function startSession(store: Store, p: Principal, d: Deployment, b: Branch): void {
  store.devSessions.set(store.devKey(p.user.id, d.id), { branchName: b.name, startedAt: new Date().toISOString() });
}

function createBranch(c: Call): Reply {
  requireApiKey(c.p);
  requireRole(c.p, "DEVELOPER", "creating a branch");
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const b = objBody(c.body);
  const name = fStr(b, "name", true)!;
  if (!BRANCH_NAME.test(name) || name.includes("..")) throw invalid("name must be a valid branch name (letters, digits, . _ / -)");
  const fromName = fStr(b, "from", false);
  const activate = fBool(b, "activate", false) ?? false;
  const from = fromName !== undefined ? c.store.findBranch(d.id, fromName) : c.store.productionBranch(d.id);
  if (!from) throw invalid(`from branch ${fromName ?? ""} does not exist`);
  if (c.store.findBranch(d.id, name)) throw conflict(`branch ${name} already exists`, "branch_exists");
  const nb = copyBranch(c.store, d, name, from, "shared");
  if (activate) startSession(c.store, c.p, d, nb);
  return created(branchJson(nb), `/build/api/v1/deployments/${d.id}/branches/${nb.id}`);
}

function deleteBranch(c: Call): Reply {
  requireApiKey(c.p);
  requireRole(c.p, "DEVELOPER", "deleting a branch");
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const name = c.q.get("branchName");
  if (name === null || name === "") throw bad("query parameter branchName is required");
  const removeOnUpstream = qBool(c.q, "removeOnUpstream") ?? false;
  const b = c.store.findBranch(d.id, name);
  if (!b) throw notFound(`branch ${name} not found`);
  if (b.kind === "production") throw invalid("the production branch cannot be deleted");
  if (b.kind === "personal" && b.ownerUserId !== c.p.user.id && c.p.user.role !== "ADMIN") throw forbidden(`branch ${name} is another user's personal branch`);
  const s = c.store;
  for (const child of s.branchesOf(d.id)) if (child.parentBranch === b.name) child.parentBranch = b.parentBranch;
  s.branches = s.branches.filter((x) => x !== b);
  for (const [k, sess] of [...s.devSessions]) if (k.endsWith(`:${d.id}`) && sess.branchName === b.name) s.devSessions.delete(k);
  return wrap({ name: b.name, id: b.id, deleted: true, removedOnUpstream: removeOnUpstream });
}

function devState(store: Store, p: Principal, d: Deployment): Record<string, unknown> {
  const sess = store.devSessions.get(store.devKey(p.user.id, d.id));
  if (!sess) return { active: false };
  return { active: true, branchName: sess.branchName, startedAt: sess.startedAt };
}

function getDevMode(c: Call): Reply {
  requireApiKey(c.p);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  return wrap(devState(c.store, c.p, d));
}

function startDevMode(c: Call): Reply {
  requireApiKey(c.p);
  requireRole(c.p, "DEVELOPER", "dev mode");
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  const body = objBody(c.body, true);
  const name = fStr(body, "branchName", false);
  let b: Branch | undefined;
  if (name === undefined) {
    const personal = `dev-${c.p.user.email.split("@")[0]!.split(".")[0]!.toLowerCase()}`;
    b = c.store.findBranch(d.id, personal);
    if (!b) {
      const prod = c.store.productionBranch(d.id);
      if (!prod) throw invalid("the deployment has no production branch to branch from");
      b = copyBranch(c.store, d, personal, prod, "personal", c.p.user.id);
      b.lastHash = randomBytes(20).toString("hex");
    }
  } else {
    b = c.store.findBranch(d.id, name);
    if (!b) throw notFound(`branch ${name} not found`);
  }
  if (b.kind === "production") throw invalid("dev mode cannot be started on the production branch");
  if (b.kind === "personal" && b.ownerUserId !== c.p.user.id) throw forbidden(`branch ${b.name} is another user's personal branch`);
  startSession(c.store, c.p, d, b);
  return wrap(devState(c.store, c.p, d));
}

function stopDevMode(c: Call): Reply {
  requireApiKey(c.p);
  const d = deploymentFor(c.store, c.p, c.params["deploymentId"]);
  c.store.devSessions.delete(c.store.devKey(c.p.user.id, d.id));
  return wrap(devState(c.store, c.p, d));
}

export function registerBranches(r: AppRouter): void {
  r.add("GET", "/build/api/v1/deployments/{deploymentId}/branches", listBranches);
  r.add("POST", "/build/api/v1/deployments/{deploymentId}/branches", createBranch);
  r.add("DELETE", "/build/api/v1/deployments/{deploymentId}/branches", deleteBranch);
  r.add("GET", "/build/api/v1/deployments/{deploymentId}/branches/{branchId}", getBranch);
  r.add("GET", "/build/api/v1/deployments/{deploymentId}/dev-mode", getDevMode);
  r.add("POST", "/build/api/v1/deployments/{deploymentId}/dev-mode", startDevMode);
  r.add("DELETE", "/build/api/v1/deployments/{deploymentId}/dev-mode", stopDevMode);
}
