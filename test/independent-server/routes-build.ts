// E4 (staging toggle) and branch management on the /build/api/v1 prefix.
import { randomBytes } from "node:crypto";
import { cursorPage, HttpError, ok, requireObjectBody, strAsc, toBool, toInt } from "./http-util.js";
import type { Route } from "./router.js";
import { findDeployment, type Branch, type Deployment } from "./store.js";

export function branchResult(b: Branch): Record<string, unknown> {
  return { id: b.id, name: b.name, parentBranch: b.parentBranch, lastHash: b.lastHash, isStagingEnvironmentEnabled: b.staging };
}

function branchListItem(b: Branch): Record<string, unknown> {
  return { ...branchResult(b), kind: b.kind, owner: b.owner, createdAt: b.createdAt.toISOString() };
}

function findBranch(d: Deployment, name: string): Branch {
  const b = d.branches.find((x) => x.name === name);
  if (!b) throw new HttpError(404, `branch ${name} not found`);
  return b;
}

function toggleStaging(d: Deployment, body: unknown): Branch {
  const b = requireObjectBody(body);
  const enabled = toBool(b.enabled);
  if (enabled === undefined) throw new HttpError(422, "enabled is required and must be a boolean");
  const hasName = b.branchName !== undefined && b.branchName !== null;
  const hasId = b.branchId !== undefined && b.branchId !== null;
  if (!hasName && !hasId) throw new HttpError(422, "one of branchName or branchId is required");
  let byId: Branch | undefined;
  let byName: Branch | undefined;
  if (hasId) {
    const id = toInt(b.branchId);
    if (id === undefined) throw new HttpError(422, "branchId must be an integer");
    byId = d.branches.find((x) => x.id === id);
    if (!byId) throw new HttpError(404, `branch ${id} not found`);
  }
  if (hasName) {
    if (typeof b.branchName !== "string") throw new HttpError(422, "branchName must be a string");
    byName = findBranch(d, b.branchName);
  }
  if (byId && byName && byId !== byName) throw new HttpError(422, "branchName and branchId refer to different branches");
  const br = (byId ?? byName) as Branch;
  if (enabled && br.kind !== "shared") {
    throw new HttpError(
      422,
      `${br.kind === "production" ? "the production branch" : "a personal development branch"} cannot have an always-on staging environment`,
      "branch_not_shared",
    );
  }
  br.staging = enabled;
  return br;
}

function createBranch(d: Deployment, body: unknown, nextId: () => number): Branch {
  const b = requireObjectBody(body);
  if (typeof b.name !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/.test(b.name)) {
    throw new HttpError(422, "name is required: letters, digits, '.', '_', '/', '-' (max 100)");
  }
  if (d.branches.some((x) => x.name === b.name)) throw new HttpError(409, `branch ${b.name} already exists`, "branch_exists");
  const prod = d.branches.find((x) => x.kind === "production");
  const parentName = b.parentBranch === undefined || b.parentBranch === null ? (prod?.name ?? "") : b.parentBranch;
  if (typeof parentName !== "string") throw new HttpError(422, "parentBranch must be a string");
  const parent = d.branches.find((x) => x.name === parentName);
  if (!parent) throw new HttpError(422, `parent branch ${parentName} does not exist`);
  const personal = b.personal === undefined ? false : toBool(b.personal);
  if (personal === undefined) throw new HttpError(422, "personal must be a boolean");
  const br: Branch = {
    id: nextId(),
    name: b.name,
    parentBranch: parent.name,
    lastHash: parent.lastHash,
    staging: false,
    kind: personal ? "personal" : "shared",
    owner: "admin@example.test",
    createdAt: new Date(),
  };
  d.branches.push(br);
  return br;
}

export const buildRoutes: Route[] = [
  {
    method: "PUT",
    path: "/build/api/v1/deployments/:deploymentId/branches/staging-environment",
    style: "control",
    handler: ({ st, params, body }) => ok({ data: branchResult(toggleStaging(findDeployment(st, params.deploymentId), body)) }),
  },
  {
    method: "GET",
    path: "/build/api/v1/deployments/:deploymentId/branches",
    style: "control",
    handler: ({ st, params, query }) => {
      const d = findDeployment(st, params.deploymentId);
      const all = [...d.branches].sort((a, b) => strAsc(a.name, b.name));
      const page = cursorPage(all, (b) => b.name, strAsc, query);
      const items = page.items.map(branchListItem);
      return ok({ items, pageInfo: page.pageInfo, data: items, count: all.length });
    },
  },
  {
    method: "POST",
    path: "/build/api/v1/deployments/:deploymentId/branches",
    style: "control",
    handler: ({ st, params, body }) => {
      const d = findDeployment(st, params.deploymentId);
      return ok({ data: branchListItem(createBranch(d, body, () => (st.seq.branch += 4))) }, 201);
    },
  },
  {
    method: "DELETE",
    path: "/build/api/v1/deployments/:deploymentId/branches",
    style: "control",
    handler: ({ st, params, query }) => {
      const d = findDeployment(st, params.deploymentId);
      const name = query.get("branchName");
      if (!name) throw new HttpError(422, "query parameter branchName is required");
      const br = findBranch(d, name);
      if (br.kind === "production") throw new HttpError(422, "the production branch cannot be deleted", "production_branch");
      const upstreamRaw = query.get("removeOnUpstream");
      const upstream = upstreamRaw === null ? false : toBool(upstreamRaw);
      if (upstream === undefined) throw new HttpError(422, "removeOnUpstream must be true or false");
      const reparented: string[] = [];
      for (const child of d.branches) {
        if (child.parentBranch === br.name) {
          child.parentBranch = br.parentBranch;
          reparented.push(child.name);
        }
      }
      d.branches = d.branches.filter((x) => x !== br);
      return ok({ data: { deleted: br.name, reparented, removedOnUpstream: upstream } });
    },
  },
  {
    method: "GET",
    path: "/api/v1/deployments/:deploymentId/build-status",
    style: "control",
    handler: ({ st, params, query }) => {
      const d = findDeployment(st, params.deploymentId);
      const br = query.get("branchName") ? findBranch(d, query.get("branchName") as string) : d.branches.find((x) => x.kind === "production");
      if (!br) throw new HttpError(404, "no production branch");
      return ok({ data: { branchName: br.name, lastHash: br.lastHash, status: "deployed", buildId: randomBytes(4).toString("hex") } });
    },
  },
];
