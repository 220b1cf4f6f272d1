import { group, type CheckSpec } from "../core/check.js";
import type { CheckContext } from "../core/context.js";
import type { Response } from "../core/http.js";
import { Skip } from "../core/outcome.js";
import { currentEnvironments } from "./lib/environment-list.js";

const togglePath = (dep: string) => `/build/api/v1/deployments/${dep}/branches/staging-environment`;

type BranchRef = { branchName: string } | { branchId: number };

/** The branches E2 lists as `staging` environments now (States table: an enabled branch is listed so). */
async function stagingBranches(ctx: CheckContext, dep: string, type?: "staging"): Promise<{ names: Set<string | undefined>; res: Response }> {
  const { environments, res } = await currentEnvironments(ctx.api, ctx.expect, dep, type);
  return { names: new Set(environments.filter((e) => e.type === "staging").map((e) => e.branch)), res };
}

/** At cleanup the branch's flag goes back to `was`; a branch found as it was is left alone. */
function restoreLater(ctx: CheckContext, dep: string, branchName: string, was: boolean): void {
  ctx.scratch.onCleanup(`the staging environment of branch ${branchName} in deployment ${dep}`, async () => {
    if ((await stagingBranches(ctx, dep)).names.has(branchName) === was) return;
    const res = await ctx.api.put(togglePath(dep), { enabled: was, branchName });
    if (res.status !== 200) throw new Error(`the staging toggle answered ${res.status}`);
    // A 200 that changed nothing is no restoration: the report must list what was left.
    if ((await stagingBranches(ctx, dep)).names.has(branchName) !== was) throw new Error(`the staging toggle answered 200 but E2 still shows the flag ${was ? "off" : "on"}`);
  });
}

/** Whether the branch's staging environment is on now; its restoration is registered. */
async function keepFlag(ctx: CheckContext, dep: string, branchName: string): Promise<boolean> {
  const was = (await stagingBranches(ctx, dep)).names.has(branchName);
  restoreLater(ctx, dep, branchName, was);
  return was;
}

/** A toggle that prepares the state a check starts from: it must succeed, but is not the rule under test. */
async function setFlag(ctx: CheckContext, dep: string, branchName: string, enabled: boolean, why: string): Promise<void> {
  ctx.expect.status(await ctx.api.put(togglePath(dep), { enabled, branchName }), 200, why);
}

/** The toggle under test: a 200 BranchResponse whose flag is `enabled`. */
async function toggle(ctx: CheckContext, dep: string, ref: BranchRef, enabled: boolean): Promise<{ branch: any; res: Response }> {
  const res = await ctx.api.put(togglePath(dep), { enabled, ...ref });
  const branch = ctx.expect.ok(res, "BranchResponse").data;
  ctx.expect.equal(branch.isStagingEnvironmentEnabled, enabled, `the answer shows isStagingEnvironmentEnabled ${enabled}`, res);
  return { branch, res };
}

/** E2, unfiltered and with type=staging, lists the branch as a staging environment, or does not. */
async function expectListed(ctx: CheckContext, dep: string, branchName: string, listed: boolean, types: (undefined | "staging")[] = [undefined, "staging"]): Promise<void> {
  for (const type of types) {
    const { names, res } = await stagingBranches(ctx, dep, type);
    const list = type ? "E2 with type=staging" : "E2";
    ctx.expect.that(names.has(branchName) === listed, `${list} ${listed ? "lists" : "does not list"} branch ${branchName} as a staging environment`, { expected: `${listed ? "an" : "no"} environment of type staging on branch ${branchName}`, got: `staging branches: ${[...names].join(", ") || "none"}`, res });
  }
}

/** A personal or the production branch: enabling is refused (status not shown: any 4xx) and changes nothing. */
function refusesToEnable(fixtureName: "personalBranch" | "productionBranch", what: string): CheckSpec["run"] {
  return async (ctx) => {
    const dep = ctx.fixture("deployment").id;
    const name = ctx.fixture(fixtureName).name;
    const was = await keepFlag(ctx, dep, name);
    ctx.expect.clientError(await ctx.api.put(togglePath(dep), { enabled: true, branchName: name }), `enabling the staging environment of ${what} ${name} is rejected`);
    await expectListed(ctx, dep, name, was, [undefined]);
  };
}

export const stagingChecks = group("staging", [
  {
    id: "staging.enable.by-name",
    spec: "E4; States and transitions (Branch)",
    level: "MUST",
    title: "Enabling a shared branch's staging environment by branchName answers the Branch with the flag on, and E2 then lists it as a staging environment",
    needs: ["writes", "fixture:deployment", "fixture:sharedBranch"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const name = ctx.fixture("sharedBranch").name;
      if (await keepFlag(ctx, dep, name)) await setFlag(ctx, dep, name, false, "switching the branch's staging environment off first, so that switching it on shows");
      const { branch, res } = await toggle(ctx, dep, { branchName: name }, true);
      ctx.expect.equal(branch.name, name, "the answer is the branch named", res);
      await expectListed(ctx, dep, name, true);
    },
  },
  {
    id: "staging.enable.by-id",
    spec: "E4 (branchId: the id the branch list returns); States and transitions (Branch)",
    level: "MUST",
    title: "Enabling a shared branch's staging environment by branchId answers that Branch with the flag on, and E2 then lists it as a staging environment",
    needs: ["writes", "fixture:deployment", "fixture:sharedBranch"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const shared = ctx.fixture("sharedBranch");
      if (shared.id === undefined) throw new Skip(`the branches list gives branch ${shared.name} no integer id to send as branchId`);
      if (await keepFlag(ctx, dep, shared.name)) await setFlag(ctx, dep, shared.name, false, "switching the branch's staging environment off first, so that switching it on shows");
      const { branch, res } = await toggle(ctx, dep, { branchId: shared.id }, true);
      ctx.expect.equal(branch.id, shared.id, "the answer is the branch with the branchId sent", res);
      await expectListed(ctx, dep, shared.name, true);
    },
  },
  {
    id: "staging.disable.clears",
    spec: "E4; States and transitions (Branch)",
    level: "MUST",
    title: "Disabling a branch's staging environment answers the flag off, and E2 no longer lists it as a staging environment",
    needs: ["writes", "fixture:deployment", "fixture:sharedBranch"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const name = ctx.fixture("sharedBranch").name;
      await keepFlag(ctx, dep, name);
      await setFlag(ctx, dep, name, true, "switching the branch's staging environment on first");
      await toggle(ctx, dep, { branchName: name }, false);
      await expectListed(ctx, dep, name, false);
    },
  },
  {
    id: "staging.enable.idempotent",
    spec: "E4; States and transitions (Branch)",
    level: "SHOULD",
    title: "Enabling an already enabled staging environment again is harmless: 200, the flag still on, still listed",
    needs: ["writes", "fixture:deployment", "fixture:sharedBranch"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const name = ctx.fixture("sharedBranch").name;
      await keepFlag(ctx, dep, name);
      await setFlag(ctx, dep, name, true, "the first enable");
      await toggle(ctx, dep, { branchName: name }, true);
      await expectListed(ctx, dep, name, true, [undefined]);
    },
  },
  {
    id: "staging.reject.personal-branch",
    spec: "E4; States and transitions (Branch); Errors 5",
    level: "MUST",
    title: "Enabling the staging environment of a personal development branch is rejected with a 4xx and changes nothing",
    needs: ["writes", "fixture:deployment", "fixture:personalBranch"],
    run: refusesToEnable("personalBranch", "the personal development branch"),
  },
  {
    id: "staging.reject.production-branch",
    spec: "E4; States and transitions (Branch); Errors 5",
    level: "MUST",
    title: "Enabling the staging environment of the production branch is rejected with a 4xx and changes nothing",
    needs: ["writes", "fixture:deployment", "fixture:productionBranch"],
    run: refusesToEnable("productionBranch", "the production branch"),
  },
  {
    id: "staging.request.branch-required",
    spec: "E4 (one of branchName or branchId)",
    level: "MUST",
    title: "A toggle that names no branch (neither branchName nor branchId) is rejected with a 4xx",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const before = await stagingBranches(ctx, dep);
      const res = await ctx.api.put(togglePath(dep), { enabled: true });
      // A server that took the body anyway changed some branch: the one it answers with is put back.
      const changed = res.status < 300 ? res.body?.data?.name : undefined;
      if (typeof changed === "string") restoreLater(ctx, dep, changed, before.names.has(changed));
      ctx.expect.clientError(res, "a toggle naming no branch is rejected");
    },
  },
  {
    id: "staging.request.unknown-branch-404",
    spec: "E4 (facts: an unknown branch is a 404)",
    level: "SHOULD",
    title: "Toggling a branch the deployment does not have answers 404",
    needs: ["writes", "fixture:deployment"],
    async run(ctx) {
      const dep = ctx.fixture("deployment").id;
      const res = await ctx.api.put(togglePath(dep), { enabled: true, branchName: ctx.scratch.name("no-such-branch") });
      ctx.expect.status(res, 404, "a branch the deployment does not have");
    },
  },
]);
