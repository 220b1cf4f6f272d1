import { cleanBehaviour } from "../../behaviour.js";
import { type App, HttpError, ok, type Reply } from "../../http.js";
import { deploymentOf } from "../../routes/common.js";
import type { BranchRecord, DeploymentRecord } from "../../store.js";
import type { Policy } from "./policies.js";

export const clean = cleanBehaviour;

/** A policy for the E4 body naming no branch (refused 400 once the rest of it is valid), given the deployment's first shared branch. */
export const whenNoBranchNamed =
  (act: (shared: BranchRecord, r: Parameters<Policy>[0], refusal: HttpError) => Reply | Promise<Reply>): Policy =>
  async (r) => {
    try {
      return await r.next();
    } catch (err) {
      const refusal = err instanceof HttpError && err.status === 400 && /^name the branch/.test(err.message) ? err : undefined;
      const shared = refusal && deploymentOf(r.app, r.req).branches.find((b) => b.kind === "shared");
      if (!shared) throw err;
      return act(shared, r, refusal);
    }
  };

/** E4: a body naming no branch acts on the deployment's first shared branch. */
export const unnamedBranchIsFirstShared = whenNoBranchNamed((shared, { req, next }) => {
  req.body = { ...req.body, branchName: shared.name };
  return next();
});

/** E4: the flag a toggle leaves, from the one before it and the one asked (the handler sets the one asked). */
export const stagingFlagBecomes =
  (flag: (current: boolean, requested: boolean) => boolean): Policy =>
  async ({ req, app, next }) => {
    const dep = deploymentOf(app, req);
    const before = new Map(dep.branches.map((b) => [b.id, b.isStagingEnvironmentEnabled]));
    const reply = await next();
    const branch = reply.status === 200 ? dep.branches.find((b) => b.id === (reply.body as { data: { id: number } }).data.id) : undefined;
    if (!branch) return reply;
    branch.isStagingEnvironmentEnabled = flag(before.get(branch.id)!, req.body.enabled);
    const { data } = reply.body as { data: object };
    return ok({ data: { ...data, isStagingEnvironmentEnabled: branch.isStagingEnvironmentEnabled } });
  };

export type Settings = DeploymentRecord["settings"];

/** E6: a field the handler would refuse, kept out of its sight when `bypasses` says so, then stored as `store` says once the rest of the body is applied. */
export const storedPastTheHandler =
  (
    field: string,
    bypasses: (value: unknown) => boolean,
    store: (settings: Settings, value: any, rest: Record<string, unknown>, app: App) => Settings,
  ): Policy =>
  async ({ req, app, next }) => {
    const value = req.body?.[field];
    if (!bypasses(value)) return next();
    const { [field]: _bypassed, ...rest } = req.body;
    req.body = rest;
    const reply = await next();
    if (reply.status !== 200) return reply;
    const dep = deploymentOf(app, req);
    dep.settings = store(dep.settings, value, rest, app);
    return ok({ ...(reply.body as object), ...dep.settings });
  };
