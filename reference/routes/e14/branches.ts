import { createHash } from "node:crypto";
import { HttpError, ok, type Route } from "../../http.js";
import { branchFiles, devModeOf, e14 } from "../../e14/state.js";
import type { BranchRecord } from "../../store.js";
import { deploymentOf } from "../common.js";
import { branchNamed, branchOf } from "./data-model.js";

/**
 * E14 branches on /build/api/v1 (the list is E14 too, served beside E2 in environments.ts):
 * create {name, from?, activate?} (facts; and `personal`, this server's way to make a personal development branch), delete by `branchName` with the children re-parented
 * and `removeOnUpstream`, and the git operations commit, pull, merge, merge-to-default, connect.
 */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/;

export const branchRecord = (b: BranchRecord) => ({
  id: b.id,
  name: b.name,
  parentBranch: b.parentBranch || null,
  lastHash: b.lastHash,
  isStagingEnvironmentEnabled: b.isStagingEnvironmentEnabled,
});

const newHash = (seed: string) =>
  createHash("sha1")
    .update(seed + Date.now() + Math.random())
    .digest("hex")
    .slice(0, 7);

export const branchRoutes: Route[] = [
  {
    operation: "createBranch",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const { name, from, activate, personal } = req.body ?? {};
      if (typeof name !== "string" || !NAME.test(name)) throw new HttpError(400, "name must be a branch name");
      if (from !== undefined && typeof from !== "string") throw new HttpError(400, "from must be a branch name");
      if (activate !== undefined && typeof activate !== "boolean") throw new HttpError(400, "activate must be a boolean");
      if (personal !== undefined && typeof personal !== "boolean") throw new HttpError(400, "personal must be a boolean");
      if (dep.branches.some((b) => b.name === name)) throw new HttpError(409, `branch ${name} exists`);
      const parent = from === undefined ? dep.branches.find((b) => b.kind === "production")! : branchNamed(dep, from);
      const b: BranchRecord = {
        id: Math.max(0, ...dep.branches.map((x) => x.id)) + 1,
        name,
        parentBranch: parent.name,
        lastHash: parent.lastHash,
        // A personal development branch is the caller's (the reference's documented `personal`: the spec names such branches, not how one is made).
        ...(personal ? { kind: "personal" as const, owner: req.user.email } : { kind: "shared" as const }),
        isStagingEnvironmentEnabled: false,
      };
      dep.branches.push(b);
      const s = e14(app.store);
      const files = branchFiles(s, dep, b.name);
      for (const [n, c] of branchFiles(s, dep, parent.name)) files.set(n, c);
      if (activate) devModeOf(s, dep.id).set(b.name, req.user.id);
      return { status: 201, body: branchRecord(b) };
    },
  },
  {
    operation: "deleteBranch",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const name = req.query.get("branchName");
      if (!name) throw new HttpError(400, "branchName is required");
      const b = branchNamed(dep, name);
      if (b.kind === "production") throw new HttpError(400, "the production branch cannot be deleted");
      const children = dep.branches.filter((x) => x.parentBranch === b.name);
      // E14: the children of a deleted branch are re-parented to its parent.
      for (const c of children) c.parentBranch = b.parentBranch;
      dep.branches.splice(dep.branches.indexOf(b), 1);
      const s = e14(app.store);
      s.files.get(dep.id)?.delete(b.name);
      devModeOf(s, dep.id).delete(b.name);
      return ok({ deleted: b.name, removedOnUpstream: req.query.get("removeOnUpstream") === "true", reparented: children.map((c) => c.name) });
    },
  },
  ...(["commitBranch", "pullBranch", "mergeBranch", "mergeToDefault"] as const).map(
    (op): Route => ({
      operation: op,
      handler: (req, app) => {
        const dep = deploymentOf(app, req);
        if (req.body !== undefined && (typeof req.body !== "object" || Array.isArray(req.body) || req.body === null))
          throw new HttpError(400, "the body must be a JSON object");
        if (op === "commitBranch" && req.body?.message !== undefined && typeof req.body.message !== "string")
          throw new HttpError(400, "message must be a string");
        const b = branchOf(app, dep, req);
        if (op === "pullBranch") return ok({ branchName: b.name, lastHash: b.lastHash, upToDate: true });
        if (op === "commitBranch") {
          b.lastHash = newHash(b.name);
          return ok({ branchName: b.name, hash: b.lastHash });
        }
        const target =
          op === "mergeToDefault" ? dep.branches.find((x) => x.kind === "production")! : branchNamed(dep, req.body?.target ?? (b.parentBranch || b.name));
        if (target === b) throw new HttpError(400, "a branch cannot be merged into itself");
        const s = e14(app.store);
        const into = branchFiles(s, dep, target.name);
        for (const [n, c] of branchFiles(s, dep, b.name)) into.set(n, c);
        target.lastHash = newHash(target.name);
        return ok({ branchName: b.name, target: target.name, hash: target.lastHash });
      },
    }),
  ),
  {
    operation: "connectGithub",
    handler: (req, app) => {
      const dep = deploymentOf(app, req);
      const { owner, repo, branch } = req.body ?? {};
      if (typeof owner !== "string" || typeof repo !== "string" || !owner || !repo) throw new HttpError(400, "owner and repo are required strings");
      if (branch !== undefined && typeof branch !== "string") throw new HttpError(400, "branch must be a string");
      const link = { owner, repo, branch: branch ?? "main" };
      e14(app.store).githubConnected.set(dep.id, link);
      return ok({ connected: true, ...link });
    },
  },
];
